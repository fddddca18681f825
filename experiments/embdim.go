//go:build experiment

// Paper §4.5 "Which Algorithms perform Better for Low Embedding
// Dimensions?" (Figures 6–8 and the supplement's "Increasing embedding
// dimension"): the embedding dimension grows from 5 to 50 on USPS, KMNIST
// and uniform data, with 2·d·n·log₂n triplets.
package main

import (
	"fmt"

	"github.com/oe-lab/oe/runner/exp"
)

// dataset is one dataset of the sweep: name, stand-in, items at this
// profile (0: the paper's size) and, for uniform data, its dimension.
type dataset struct {
	name, standIn string
	n, dataDim    int
}

func main() {
	e := exp.Begin("Which Algorithms perform Better for Low Embedding Dimensions?")
	e.Paper("Section 4.5, Figures 6–8 and the supplement's increasing-embedding-dimension figures")
	e.Text(`The paper embeds USPS, a 10,000-point subset of KMNIST and uniform data in d = 5 … 50 dimensions
with 2·d·n·log₂n triplets. Its findings: most methods reach lower Procrustes and kNN errors as d grows;
SOE, STE, t-STE and OENN exploit the extra dimensions most; CKL and GNMDS get worse with larger d; no method
has a favourable inductive bias at small d. The uniform data is drawn in 50 dimensions here (the paper
does not state its dimension; it must be at least the largest embedding dimension).`)

	datasets := []dataset{
		{name: "usps", standIn: "fmnist", n: exp.Pick(60, 100, 0)},
		{name: "kmnist", standIn: "fmnist", n: exp.Pick(60, 200, 10000)},
		{name: "uniform", n: exp.Pick(60, 100, 10000), dataDim: 50},
	}
	switch exp.CurrentProfile() {
	case exp.Smoke:
		datasets = datasets[2:]
	case exp.Quick:
		datasets = []dataset{datasets[0], datasets[2]}
	}
	algorithms := exp.PickList([]string{"soe", "ste", "gnmds"}, exp.Algorithms(), exp.Algorithms())
	dims := exp.PickFloats([]float64{5, 10}, []float64{5, 10, 20, 30}, []float64{5, 10, 20, 30, 40, 50})

	var runs []exp.Run
	for _, d := range datasets {
		for _, a := range algorithms {
			epochs := exp.Pick(20, 200, 0)
			if a == "oenn" {
				epochs = exp.Pick(5, 50, 0)
			}
			keep := exp.KeepView
			if d.name == "uniform" {
				keep = exp.KeepNone
			}
			for _, dim := range dims {
				runs = append(runs, exp.Run{Dataset: d.name, StandIn: d.standIn, N: d.n, DataDim: d.dataDim, Dim: int(dim),
					Lambda: 2, Algorithm: a, MaxEpochs: epochs, Seed: 1, KeepEmbedding: keep})
			}
		}
	}
	res := e.Run(exp.Repeat(runs, exp.Pick(1, 1, 3)))
	if exp.CurrentProfile() != exp.Paper {
		e.Note(fmt.Sprintf("Profile %s uses fewer datasets, dimensions and items and caps the epochs; run `oerun experiments/embdim.go --profile paper` for the paper's sweep.", exp.CurrentProfile()))
	}

	metrics := []string{exp.TrainError, exp.TestError, exp.Procrustes, exp.KNNError}
	for _, d := range datasets {
		sub := res.Filter(func(r exp.Result) bool { return r.Run.Dataset == d.name })
		if len(sub) == 0 {
			continue
		}
		label := sub[0].Field("dataset")
		e.Heading(label)
		for _, m := range metrics {
			if m == exp.KNNError && d.name == "uniform" {
				continue // unlabelled
			}
			e.Lines(exp.LinePlot{Title: fmt.Sprintf("%s: %s", label, exp.Label(m)), Results: sub, X: "dim", Y: m, Lines: "algorithm",
				XLabel:  "embedding dimension d",
				Caption: fmt.Sprintf("%s against the embedding dimension on %s (Figure 6 / supplement); LOE and LLOE have no training triplets, so no train error.", exp.Label(m), label)})
		}
		e.Table(fmt.Sprintf("Procrustes disparity on %s (rows: method, columns: d)", label), sub.Table("algorithm", "dim", exp.Procrustes))
		if d.name != "uniform" {
			e.Table(fmt.Sprintf("kNN error on %s", label), sub.Table("algorithm", "dim", exp.KNNError))
			views := sub.Filter(func(r exp.Result) bool { return r.Run.Rep == 0 })
			if d.name == "usps" {
				e.Original(fmt.Sprintf("%s: the original data", label), views[0])
			}
			e.EmbeddingGrid(fmt.Sprintf("%s: t-SNE views by embedding dimension", label), views, "algorithm", "dim",
				fmt.Sprintf("t-SNE views of the embeddings of %s by method and embedding dimension (Figures 7 and 8), coloured by class.", label))
		}
	}
}
