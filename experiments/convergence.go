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
// dimension and number of items at this profile (0: the paper's size).
type dataset struct {
	name, standIn string
	dim, n        int
}

func main() {
	e := exp.Begin("Do the Non-Convex Approaches to OE suffer from Local Optima?")
	e.Paper("Section 4.3, Figure 3 (MNIST, USPS, CHAR) and the supplement's convergence figure (FMNIST10k, FMNIST, COVTYPE)")
	e.Text(`The paper trains every passive method for 500 epochs (λ = 2) and plots the train triplet error
against the epoch. Its findings: SOE is the only method that reaches nearly zero train error on every
dataset (a global optimum); OENN, STE and t-STE reach small train errors; on MNIST OENN plateaus after about
200 epochs (a local optimum) and SOE is the only method to converge; CKL and the convex GNMDS end with high
train error. Active methods (LOE, LLOE) have no training set and are left out.
As in the paper, every run goes through all its epochs: the stopping rule is switched off, and the train
error is measured on the stopping rule's subset of the training triplets (100,000 of them at most) after
every epoch. The final train error is on all training triplets.`)

	epochs := exp.Pick(20, 200, 500)
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
		datasets = append(datasets,
			dataset{name: "fmnist", dim: 50}, // the supplement's full FMNIST
			dataset{name: "covtype", standIn: "fmnist", dim: 30})
	}
	algorithms := exp.PickList([]string{"soe", "ste", "gnmds"}, exp.PassiveAlgorithms(), exp.PassiveAlgorithms())
	var runs []exp.Run
	for _, d := range datasets {
		for _, a := range algorithms {
			runs = append(runs, exp.Run{Dataset: d.name, StandIn: d.standIn, N: d.n, Dim: d.dim, Lambda: 2,
				Algorithm: a, MaxEpochs: epochs, NoStop: true, Seed: 1})
		}
	}
	res := e.Run(e.WithinPaperLimits(exp.Repeat(runs, exp.Pick(1, 1, 3))))
	if exp.CurrentProfile() != exp.Paper {
		e.Note(fmt.Sprintf("Profile %s subsamples the datasets and trains %d epochs instead of 500 (see \"What was run\"); run `oerun experiments/convergence.go --profile paper` for the paper's sizes.",
			exp.CurrentProfile(), epochs))
	}

	e.Heading("Train triplet error against epochs")
	for _, d := range datasets {
		sub := res.Filter(func(r exp.Result) bool { return r.Run.Dataset == d.name && r.Run.N == d.n })
		if len(sub) == 0 {
			continue
		}
		label := fmt.Sprintf("%s, n = %s", sub[0].Field("dataset"), sub[0].Field("n"))
		if d.n == 0 {
			label = sub[0].Field("dataset") + ", all items"
		}
		e.Curves(exp.CurvePlot{Title: "Convergence: " + label, Results: sub, Lines: "algorithm",
			Caption: fmt.Sprintf("Train triplet error after each epoch on %s (d = %d, λ = 2), one line per method, mean over repetitions (Figure 3 / supplement).", label, d.dim)})
	}
	byDataset := func(r exp.Result) string { return r.Field("dataset") + ", n " + r.Field("n") }
	final := exp.NewTable(append([]string{"algorithm \\ dataset"}, distinct(res, byDataset)...)...)
	test := exp.NewTable(final.Header...)
	for _, a := range res.Distinct("algorithm") {
		rowFinal, rowTest := []string{a}, []string{a}
		for _, ds := range final.Header[1:] {
			cell := res.Where("algorithm", a).Filter(func(r exp.Result) bool { return byDataset(r) == ds })
			rowFinal, rowTest = append(rowFinal, cell.Cell(exp.TrainError)), append(rowTest, cell.Cell(exp.TestError))
		}
		final.Row(rowFinal...)
		test.Row(rowTest...)
	}
	e.Table(fmt.Sprintf("Final train triplet error after %d epochs, on all training triplets (the legend values of Figure 3)", epochs), final)
	e.Table(fmt.Sprintf("Test triplet error after %d epochs", epochs), test)
}

// distinct returns the values of key over the results, in order of first
// appearance.
func distinct(rs exp.Results, key func(exp.Result) string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rs {
		if k := key(r); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}
