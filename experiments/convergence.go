//go:build experiment

// Paper §4.3 "Do the Non-Convex Approaches to OE suffer from Local Optima?"
// (Figure 3; supplement "Convergence experiments"): the train triplet error
// of every passive method against the number of epochs, to see which
// methods reach (near) zero train error, i.e. a global optimum.
package main

import (
	"fmt"

	"github.com/oe-lab/oe/runner/exp"
)

// dataset is one panel of the figure: its name, stand-in, embedding
// dimension and number of items at this profile.
type dataset struct {
	name, standIn string
	dim, n        int
}

func main() {
	e := exp.Begin("Do the Non-Convex Approaches to OE suffer from Local Optima?")
	e.Paper("Section 4.3, Figure 3 (MNIST, USPS, CHAR) and the supplement's convergence figure (FMNIST, COVTYPE)")
	e.Text(`The paper trains every passive method for 500 epochs (λ = 2) and plots the train triplet error
against the epoch. Its findings: SOE is the only method that reaches nearly zero train error on every
dataset (a global optimum); OENN, STE and t-STE reach small train errors; on MNIST OENN plateaus (a local
optimum); CKL and the convex GNMDS end with high train error. Active methods (LOE, LLOE) have no training
set and are left out.

Here each point of a curve is a run of its own capped at that many epochs (same seed, so it is the
same trajectory cut at that epoch). The paper's stopping rule stays on: a run that converged earlier
(train error on the check subset changed by < 0.005 in 50 epochs) reports the error where it stopped.`)

	datasets := []dataset{
		{name: "char", dim: 30, n: exp.Pick(60, 150, 0)},
		{name: "usps", standIn: "fmnist", dim: 50, n: exp.Pick(60, 100, 0)},
		{name: "mnist", standIn: "fmnist", dim: 50, n: exp.Pick(60, 200, 0)},
		{name: "fmnist", dim: 50, n: exp.Pick(60, 200, 10000)}, // the supplement's FMNIST10k
	}
	switch exp.CurrentProfile() {
	case exp.Smoke:
		datasets = datasets[:1]
		datasets[0].standIn = "gmm" // CI may run without the data files
	case exp.Quick:
		datasets = datasets[:2]
	default:
		datasets = append(datasets, dataset{name: "covtype", standIn: "fmnist", dim: 30})
	}
	algorithms := exp.PickList([]string{"soe", "ste", "gnmds"}, exp.PassiveAlgorithms(), exp.PassiveAlgorithms())
	epochs := exp.PickFloats([]float64{5, 50}, []float64{10, 50, 150},
		[]float64{1, 2, 5, 10, 20, 50, 100, 150, 200, 300, 400, 500})

	var runs []exp.Run
	for _, d := range datasets {
		for _, a := range algorithms {
			for _, ep := range epochs {
				runs = append(runs, exp.Run{Dataset: d.name, StandIn: d.standIn, N: d.n, Dim: d.dim, Lambda: 2,
					Algorithm: a, MaxEpochs: int(ep), Seed: 1})
			}
		}
	}
	res := e.Run(e.WithinPaperLimits(exp.Repeat(runs, exp.Pick(1, 1, 3))))
	if exp.CurrentProfile() != exp.Paper {
		e.Note(fmt.Sprintf("Profile %s subsamples the datasets (see \"What was run\"); run `oerun experiments/convergence.go --profile paper` for the paper's sizes.", exp.CurrentProfile()))
	}

	e.Heading("Train triplet error against epochs")
	for _, d := range datasets {
		sub := res.Filter(func(r exp.Result) bool { return r.Run.Dataset == d.name })
		if len(sub) == 0 {
			continue
		}
		label := sub[0].Field("dataset")
		e.Lines(exp.LinePlot{Title: "Convergence: " + label, Results: sub, X: "max_epochs", Y: exp.TrainError, Lines: "algorithm",
			LogX: true, XLabel: "epochs (log scale)",
			Caption: fmt.Sprintf("Train triplet error after E epochs on %s (d = %d, λ = 2), one line per method (Figure 3).", label, d.dim)})
	}
	final := res.Filter(func(r exp.Result) bool { return r.Run.MaxEpochs == int(epochs[len(epochs)-1]) })
	e.Table(fmt.Sprintf("Final train triplet error (cap %d epochs; the legend values of Figure 3)", int(epochs[len(epochs)-1])),
		final.Table("algorithm", "dataset", exp.TrainError))
	e.Table("Epochs actually run at the largest cap (fewer: the stopping rule fired)", final.Table("algorithm", "dataset", exp.Epochs))
	e.Table("Test triplet error at the largest cap", final.Table("algorithm", "dataset", exp.TestError))
}
