//go:build experiment

// A script for oerun's command tests that declares runs from others'
// results in a chain, as crowd.go fits CKL-x at the μ its cross-validation
// picks and then at the d another picks: STE's run exists only once SOE's
// test error is stored, and t-STE's only once STE's is.
package main

import (
	"math"

	"github.com/oe-lab/oe/runner/exp"
)

func main() {
	e := exp.Begin("Does each run of the chain SOE, STE, t-STE follow from the one before?")
	previous := e.Run([]exp.Run{{Dataset: "uniform", N: 30, Dim: 2, Algorithm: "soe", MaxEpochs: 20, Seed: 1}})
	if v := previous[0].Value(exp.TestError); !math.IsNaN(v) {
		previous = e.Run([]exp.Run{{Dataset: "uniform", N: 30, Dim: 3, Algorithm: "ste", MaxEpochs: 20, Seed: 1}})
		if v := previous[0].Value(exp.TestError); !math.IsNaN(v) {
			e.Run([]exp.Run{{Dataset: "uniform", N: 30, Dim: 4, Algorithm: "tste", MaxEpochs: 20, Seed: 1}})
		}
	}
}
