// Package interp runs an experiment script with the yaegi Go interpreter,
// against the compiled standard library and the experiment API (the symbols
// in runner/interp/symbols). Scripts are ordinary Go files, package main,
// with the build tag "experiment" so that go build and go vet skip them.
//
// Errors come back with the script's file and line: compile errors as yaegi
// reports them, and panics — the script's own or those of the API it calls —
// at the innermost line of the script that was executing.
package interp
