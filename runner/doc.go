// Package runner runs the experiment scripts of experiments/: it interprets
// a script with yaegi (runner/interp) against the experiment API
// (runner/exp), executes the runs the script declares that the SQLite run
// cache (runner/store) does not hold yet — in parallel, each run evaluated as
// the paper does (runner/evaluate) — and writes the script's Markdown report
// with its figures (runner/report).
//
// `oerun experiments/X.go` calls Run; `oerun report experiments/X.go` calls
// it with ReportOnly, which rebuilds the report from the cache without
// executing anything. When a script completes, the store records which runs
// it declared at its profile; a script that reads another's runs (exp's
// Section) has Run execute that script first where they are missing or out
// of date. Declare runs a script declare-only, for runner/plan. runner/README.md
// documents the results.db schema.
package runner
