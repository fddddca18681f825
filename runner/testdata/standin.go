//go:build experiment

// Runs on MNIST with synthetic uniform data standing in where MNIST's files
// are missing, for runner's report tests.
package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("Which data did the runs use?")
	res := e.Run(exp.Repeat([]exp.Run{{Dataset: "mnist", StandIn: "uniform", N: 20, Dim: 2, Algorithm: "runnerfake"}}, 2))
	e.Table("Test error", res.Table("algorithm", "dataset", exp.TestError))
}
