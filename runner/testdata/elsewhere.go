//go:build experiment

// A run on the CPU and its twin on the GPU, for runner's test of runs that
// this machine cannot execute (no GPU answers): they stay missing here and
// are read once another machine's results are stored.
package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("Which runs does this machine leave for another?")
	e.Run([]exp.Run{{Dataset: "uniform", N: 20, Dim: 2, Lambda: 1, Algorithm: "runnergpufake", Backend: "cpu"},
		{Dataset: "uniform", N: 20, Dim: 2, Lambda: 1, Algorithm: "runnergpufake", Backend: "gpu"}})
}
