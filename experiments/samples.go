//go:build experiment

// Paper §4.7 "Which Methods scale Better with Sample Size and Input
// Dimension?", increasing sample size (Figure 11 and the supplement's
// "Increasing number of points"): COVTYPE and uniform data with growing n;
// errors and running time against n.
package main

import (
	"fmt"

	"github.com/oe-lab/oe/runner/exp"
)

func main() {
	e := exp.Begin("Which Methods scale Better with Sample Size?")
	e.Paper("Section 4.7 (increasing sample size), Figure 11 and the supplement's increasing-number-of-points figures")
	e.Text(`The paper embeds growing subsets of COVTYPE (d = 30) and uniform data (d = 2) with λ = 2; Gram-matrix
methods are clipped at 10,000 items. Its findings: time grows as n·log n for the methods over the
embedding and as n²·log n for the Gram-matrix methods; OENN and LOE are an order of magnitude slower than
the rest (OENN with much lower test error than LOE); SOE keeps a nearly constant test error as n grows
while the others, STE and t-STE included, get worse.`)

	type source struct {
		name, standIn string
		dim           int
		ns            []float64
	}
	sources := []source{
		{name: "covtype", standIn: "fmnist", dim: exp.Pick(30, 10, 30), ns: exp.PickFloats(nil, []float64{100, 200, 400},
			[]float64{1000, 2000, 5000, 10000, 20000, 50000, 100000})},
		{name: "uniform", dim: 2, ns: exp.PickFloats([]float64{50, 100}, []float64{100, 200, 400},
			[]float64{1000, 2000, 5000, 10000, 20000, 50000, 100000})},
	}
	if exp.CurrentProfile() == exp.Smoke {
		sources = sources[1:]
	}
	algorithms := exp.PickList([]string{"soe", "ste", "gnmds"}, exp.Algorithms(), exp.Algorithms())

	var runs []exp.Run
	for _, s := range sources {
		for _, a := range algorithms {
			epochs := exp.Pick(20, 200, 0)
			if a == "oenn" {
				epochs = exp.Pick(5, 50, 0)
			}
			for _, n := range s.ns {
				runs = append(runs, exp.Run{Dataset: s.name, StandIn: s.standIn, N: int(n), Dim: s.dim, Lambda: 2,
					Algorithm: a, MaxEpochs: epochs, Seed: 1})
			}
		}
	}
	res := e.Run(e.WithinPaperLimits(exp.Repeat(runs, exp.Pick(1, 1, 3))))
	if exp.CurrentProfile() != exp.Paper {
		e.Note(fmt.Sprintf("Profile %s uses small n and caps the epochs; the growth of time with n, not its level, is what compares with the paper.", exp.CurrentProfile()))
	}

	metrics := []string{exp.ConvergeSeconds, exp.FitSeconds, exp.TrainError, exp.TestError, exp.Procrustes, exp.KNNError}
	// Times go on log–log axes, where the slope is the growth exponent.
	logLog := map[string]bool{exp.ConvergeSeconds: true, exp.FitSeconds: true}
	logNote := map[bool]string{true: ", log–log axes: the slope is the growth exponent", false: ""}
	for _, s := range sources {
		sub := res.Filter(func(r exp.Result) bool { return r.Run.Dataset == s.name })
		if len(sub) == 0 {
			continue
		}
		label := sub[0].Field("dataset")
		e.Heading(fmt.Sprintf("%s (d = %d)", label, s.dim))
		for _, m := range metrics {
			if m == exp.KNNError && s.name == "uniform" {
				continue // unlabelled
			}
			e.Lines(exp.LinePlot{Title: fmt.Sprintf("%s: %s", label, exp.Label(m)), Results: sub, X: "n", Y: m, Lines: "algorithm",
				LogX: true, LogY: logLog[m], XLabel: "number of items n (log scale)",
				Caption: fmt.Sprintf("%s against n on %s (Figure 11 / supplement)%s.", exp.Label(m), label, logNote[logLog[m]])})
		}
		e.Table(fmt.Sprintf("Wall time of the fit on %s (rows: method, columns: n)", label), sub.Table("algorithm", "n", exp.FitSeconds))
		e.Table(fmt.Sprintf("Test triplet error on %s", label), sub.Table("algorithm", "n", exp.TestError))
	}
}
