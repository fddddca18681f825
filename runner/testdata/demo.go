//go:build experiment

// A small experiment over the fake algorithm of runner's tests.
package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("Does the fake algorithm get better with more triplets?")
	e.Paper("none: a test script")
	var runs []exp.Run
	for _, lambda := range []float64{1, 2, 4} {
		// The scatter plot draws a run of λ = 1: those keep their views.
		keep := exp.KeepNone
		if lambda == 1 {
			keep = exp.KeepView
		}
		for _, a := range []string{"runnerfake", "notregistered"} {
			runs = append(runs, exp.Run{Dataset: "uniform", N: exp.Pick(20, 40, 80), Dim: 2, Lambda: lambda, Algorithm: a, KeepEmbedding: keep})
		}
	}
	res := e.Run(exp.Repeat(runs, 2))
	e.Table("Test error", res.Table("algorithm", "lambda", exp.TestError))
	e.Lines(exp.LinePlot{Title: "Test error against lambda", Results: res, X: "lambda", Y: exp.TestError, Lines: "algorithm"})
	e.HeatMap(exp.HeatMap{Title: "Test error", Results: res, X: "lambda", Y: "rep", Z: exp.TestError})
	e.Scatter("Embedding", res[0])
}
