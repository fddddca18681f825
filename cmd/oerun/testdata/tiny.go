//go:build experiment

// A small experiment for oerun's command tests: SOE and STE on 30 uniform
// points, two repetitions.
package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("Is SOE better than STE on a few points?")
	var runs []exp.Run
	for _, a := range []string{"soe", "ste"} {
		runs = append(runs, exp.Run{Dataset: "uniform", N: 30, Dim: 2, Algorithm: a, MaxEpochs: 20, Seed: 1})
	}
	res := e.Run(exp.Repeat(runs, 2))
	e.Table("Test triplet error", res.Table("algorithm", "dataset", exp.TestError))
	e.Bars(exp.BarPlot{Title: "Test error", Results: res, Groups: "dataset", Bars: "algorithm", Y: exp.TestError})
}
