//go:build experiment

// Declares some of sizes.go's runs again, and its own.
package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("Are runs shared between scripts planned once?")
	var runs []exp.Run
	for _, n := range []int{20, 40, 320} {
		runs = append(runs, exp.Run{Dataset: "gmm", N: n, Dim: 2, Algorithm: "planfake"})
	}
	e.Run(runs)
}
