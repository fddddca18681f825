// Package session carries the state of one script execution between the
// host (package runner, which starts the interpreter) and the experiment API
// the script calls (package exp): the profile, whether runs may execute, the
// store and executor, and the report being assembled. It is internal so that
// scripts, which see only exp, cannot reach it.
package session
