//go:build experiment

package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("Requires cycle_a, which requires this script")
	e.Section("cycle_a")
}
