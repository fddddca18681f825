//go:build experiment

// A script for oerun's command tests that declares a run from another's
// result, as crowd.go fits each method at the d its cross-validation picks:
// STE's run exists only once SOE's test error is stored.
package main

import (
	"math"

	"github.com/oe-lab/oe/runner/exp"
)

func main() {
	e := exp.Begin("Does STE's run follow from SOE's result?")
	first := e.Run([]exp.Run{{Dataset: "uniform", N: 30, Dim: 2, Algorithm: "soe", MaxEpochs: 20, Seed: 1}})
	if v := first[0].Value(exp.TestError); !math.IsNaN(v) {
		e.Run([]exp.Run{{Dataset: "uniform", N: 30, Dim: 3, Algorithm: "ste", MaxEpochs: 20, Seed: 1}})
	}
}
