// Package progress shows how far long work has got on one status line.
//
// Line is the display: on a terminal it redraws in place, at most ten times
// a second and once a second while nothing changes, so that the elapsed
// time moves; elsewhere (a log file, CI) it prints whole lines, at most one
// every HeartbeatEvery, and prints one then even when nothing changed (a
// heartbeat during a long single step), and the final state. Bar counts the
// runs of an experiment script on a Line: runs done out of total, how many
// came from the cache and how many failed, the elapsed time and an estimate
// of the time left. oerun's epoch bar (cmd/oerun) is a Line too.
package progress
