//go:build experiment

// Runs on uniform data and on MNIST without a stand-in, keeping MNIST's
// view, for runner's tests of runs whose data files are not here.
package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("Does a run without its data count?")
	e.Run([]exp.Run{{Dataset: "uniform", N: 20, Dim: 2, Algorithm: "runnerfake"}, {Dataset: "mnist", N: 20, Dim: 2, Algorithm: "runnerfake", KeepEmbedding: exp.KeepView}})
}
