//go:build experiment

// A two-fold cross-validation on the material comparisons, for runner's
// test of runs stored where their data files are not here any more.
package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("Does a stored run on comparisons count without its data?")
	e.CrossValidate([]exp.Run{{Dataset: "material", Dim: 2, Algorithm: "runnerfake"}}, 2)
}
