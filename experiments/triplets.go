//go:build experiment

// Paper §4.4 "Which Algorithms perform Better in Different Triplet Regimes?"
// (Figure 4 and the supplement's "Increasing triplets" figures): the
// triplet multiplier λ grows from 0.01 to 8 on the 2D shape sets, Uniform
// and CHAR, USPS and MNIST (the datasets of the paper's Table 2); train,
// test, Procrustes and kNN errors of every passive method, the embeddings
// themselves, and the original 2D data beside them.
package main

import (
	"fmt"

	"github.com/oe-lab/oe/runner/exp"
)

// dataset is one dataset of the sweep: name, stand-in, embedding dimension
// and items at this profile (0: the paper's size).
type dataset struct {
	name, standIn string
	dim, n        int
}

func main() {
	e := exp.Begin("Which Algorithms perform Better in Different Triplet Regimes?")
	e.Paper("Section 4.4, Figure 4 (Aggregation, MNIST), Figure 5 and the supplement's increasing-triplets figures")
	e.Text(`The paper varies the number of triplets λ·n·d·log₂n with λ from 0.01 to 8 on seven 2D datasets and
three high-dimensional ones, for the passive methods (LOE and LLOE choose their own triplets and are left
out); its Table 2 adds Uniform (10,000 points in 2D) and embeds CHAR in d = 50 here. Its findings: the Procrustes (and test) error drops sharply between λ = 0.5 and λ = 1; below
λ ≈ 0.5 no method beats a random embedding (Procrustes ≈ 1); in the large-triplet regime SOE is the best at
reconstruction and at preserving neighbourhoods, STE, OENN and FORTE do well on most datasets; STE beats
t-STE on seven of ten datasets; CKL and GNMDS are the worst; at small λ most methods fit their few
triplets but generalise poorly, FORTE among the worst; CKL-x preserves neighbourhoods better than it
reconstructs.`)

	twoD := []dataset{
		{name: "aggregation", dim: 2, n: exp.Pick(100, 200, 0)},
		{name: "spiral", dim: 2, n: exp.Pick(100, 200, 0)},
		{name: "compound", dim: 2},
		{name: "pathbased", dim: 2},
		{name: "birch1", dim: 2},
		{name: "birch3", dim: 2},
		{name: "worms", dim: 2},
		{name: "uniform", dim: 2}, // Table 2: n = 10,000 in 2 dimensions
	}
	highD := []dataset{
		{name: "char", dim: exp.Pick(30, 10, 50), n: exp.Pick(60, 150, 0)}, // Table 2: d = 50 for CHAR here
		{name: "usps", standIn: "fmnist", dim: 50},
		{name: "mnist", standIn: "fmnist", dim: 50},
	}
	switch exp.CurrentProfile() {
	case exp.Smoke:
		twoD, highD = twoD[:1], highD[:1]
	case exp.Quick:
		twoD, highD = twoD[:2], highD[:1]
	}
	datasets := append(append([]dataset{}, twoD...), highD...)
	if exp.CurrentProfile() == exp.Smoke {
		for i := range datasets {
			datasets[i].standIn = "gmm" // CI may run without the data files
		}
	}
	algorithms := exp.PickList([]string{"soe", "ste", "tste", "gnmds"}, exp.PassiveAlgorithms(), exp.PassiveAlgorithms())
	lambdas := exp.PickFloats([]float64{0.5, 2}, []float64{0.1, 0.25, 0.5, 1, 2, 4, 8},
		[]float64{0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 2, 4, 8})

	var runs []exp.Run
	for _, d := range datasets {
		for _, a := range algorithms {
			for _, l := range lambdas {
				runs = append(runs, exp.Run{Dataset: d.name, StandIn: d.standIn, N: d.n, Dim: d.dim, Lambda: l,
					Algorithm: a, MaxEpochs: exp.Pick(30, 200, 0), Seed: 1, KeepEmbedding: exp.KeepView})
			}
		}
	}
	res := e.Run(e.WithinPaperLimits(exp.Repeat(runs, exp.Pick(1, 1, 3))))
	if exp.CurrentProfile() != exp.Paper {
		e.Note(fmt.Sprintf("Profile %s uses fewer datasets, λ values and items, and caps the epochs; run `oerun experiments/triplets.go --profile paper` for the paper's sweep.", exp.CurrentProfile()))
	}

	metrics := []string{exp.TrainError, exp.TestError, exp.Procrustes, exp.KNNError}
	for _, d := range datasets {
		sub := res.Filter(func(r exp.Result) bool { return r.Run.Dataset == d.name })
		if len(sub) == 0 {
			continue
		}
		label := sub[0].Field("dataset")
		e.Heading(fmt.Sprintf("%s (d = %d)", label, d.dim))
		for _, m := range metrics {
			e.Lines(exp.LinePlot{Title: fmt.Sprintf("%s: %s", label, exp.Label(m)), Results: sub, X: "lambda", Y: m, Lines: "algorithm",
				LogX: true, XLabel: "triplet multiplier λ (log scale)",
				Caption: fmt.Sprintf("%s against λ on %s, one line per method (Figure 4 / supplement).", exp.Label(m), label)})
		}
		e.Table(fmt.Sprintf("Procrustes disparity on %s (rows: method, columns: λ)", label), sub.Table("algorithm", "lambda", exp.Procrustes))
		e.Table(fmt.Sprintf("Test triplet error on %s", label), sub.Table("algorithm", "lambda", exp.TestError))
		e.Collapsed(fmt.Sprintf("Collapsed embeddings on %s", label), sub, "lambda")
		if d.dim == 2 {
			e.Original(fmt.Sprintf("%s: the original data", label), sub[0])
		}
		e.EmbeddingGrid(fmt.Sprintf("%s: embeddings by λ", label), sub.Filter(func(r exp.Result) bool { return r.Run.Rep == 0 }),
			"algorithm", "lambda", fmt.Sprintf("The embedding each method learns on %s from λ·n·d·log₂n triplets (Figure 5 / supplement), coloured by class.", label))
	}
}
