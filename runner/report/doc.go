// Package report writes an experiment's Markdown report — the paper's
// question, what was run, tables, figures (PNG and SVG through lib/plot), the
// environment the runs came from and the command that reruns them — to
// reports/<experiment>.md with its figures under reports/<experiment>/, and
// keeps reports/README.md, the index of all reports, up to date.
package report
