// Package progress draws one overall progress bar for the runs of an
// experiment script: runs done out of total, how many came from the cache
// and how many failed, elapsed time and an estimate of the time left. On a
// terminal the bar redraws in place; elsewhere (logs, CI) it prints a line at
// most every few seconds.
package progress
