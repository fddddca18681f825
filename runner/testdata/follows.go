//go:build experiment

// A script that declares a run from another's result, as crowd.go fits each
// method at the d its cross-validation picks: the second run exists only
// once the first one's test error is stored.
package main

import (
	"math"

	"github.com/oe-lab/oe/runner/exp"
)

func main() {
	e := exp.Begin("Does a run follow from another's result?")
	e.Paper("none: a test script")
	first := e.Run([]exp.Run{{Dataset: "uniform", N: 20, Dim: 2, Lambda: 1, Algorithm: "runnerfake"}})
	if v := first[0].Value(exp.TestError); !math.IsNaN(v) {
		e.Run([]exp.Run{{Dataset: "uniform", N: 20, Dim: 3, Lambda: 1, Algorithm: "runnerfake"}})
	}
}
