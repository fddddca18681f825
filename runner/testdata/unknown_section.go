//go:build experiment

package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("Requires a script that does not exist")
	e.Section("no_such_script")
}
