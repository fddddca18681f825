//go:build experiment

package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("Requires itself")
	e.Section("self")
}
