// Package runner runs the experiment scripts of experiments/: it interprets
// a script with yaegi (runner/interp) against the experiment API
// (runner/exp), executes the runs the script declares that the SQLite run
// cache (runner/store) does not hold yet — in parallel, each run evaluated as
// the paper does (runner/evaluate) — and writes the script's Markdown report
// with its figures (runner/report).
//
// `oerun experiments/X.go` calls Run; `oerun report experiments/X.go` calls
// it with ReportOnly, which rebuilds the report from the cache without
// executing anything. runner/README.md documents the results.db schema.
package runner
