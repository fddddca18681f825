// Package report writes an experiment's Markdown report — the paper's
// question, what was run (and, at a profile under way, how many runs are
// done and missing), tables, figures (SVG or PNG, whichever suits the
// figure: see encodeFigure), the environment the runs came from and the
// command that reruns them — to <dir>/<experiment>.md with its figures under
// <dir>/<experiment>/, where dir is one profile's folder (reports/quick,
// reports/paper). Index keeps <dir>/README.md, the profile's index, and
// Overview reports/README.md, every report of the profiles side by side.
package report
