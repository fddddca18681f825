//go:build experiment

// Runs of plan's tests at several sizes (the fake algorithm computes them).
package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("How does the fake algorithm's cost grow with n?")
	var runs []exp.Run
	for _, n := range []int{20, 40, 80, 160} {
		for _, d := range []int{2, 3} {
			runs = append(runs, exp.Run{Dataset: "gmm", N: n, Dim: d, Algorithm: "planfake"})
		}
	}
	e.Run(exp.Repeat(runs, 2))
}
