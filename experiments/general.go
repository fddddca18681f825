//go:build experiment

// Paper §4.2 "For a General Ordinal Embedding Task, which Algorithm should
// you use?" (Figure 2 and Table 3): every algorithm on six datasets, λ = 2,
// the paper's embedding dimension per dataset, compared on test triplet
// error, kNN error and running time.
package main

import (
	"fmt"

	"github.com/oe-lab/oe/runner/exp"
)

// dataset is one column of Table 3: its name, the paper's embedding
// dimension, the number of items at this profile (0: the paper's), and what
// stands in for it when its files are not available.
type dataset struct {
	name, standIn string
	dim, n        int
}

func main() {
	e := exp.Begin("For a General Ordinal Embedding Task, which Algorithm should you use?")
	e.Paper("Section 4.2, Figure 2 and Table 3 (supplement)")
	e.Text(`The paper evaluates every algorithm on six datasets with sample sizes from 1.8K to 581K and input
dimensions from 2 to 784, with λ = 2 (2·n·d·log₂n triplets) and the paper's embedding dimension for each
dataset. Gram-matrix methods (CKL, GNMDS, FORTE) are excluded above 10,000 items. Its findings: SOE has
the lowest test triplet error without exception and is among the best in kNN error; t-STE is often among
the worst at preserving neighbourhoods; CKL and GNMDS are fastest but least accurate among passive
methods; FORTE is the only competitive Gram-matrix method, and slow; LOE and LLOE are not better.`)

	// Paper sizes (n, embedding dimension) from Table 2; the smoke and quick
	// profiles subsample the large datasets.
	big := exp.Pick(60, 400, 0) // 0: the paper's n
	datasets := []dataset{
		{name: "mnist", standIn: "fmnist", dim: 50, n: big},
		{name: "covtype", standIn: "fmnist", dim: 30, n: big},
		{name: "fmnist", dim: 50, n: big},
		{name: "usps", standIn: "fmnist", dim: 50, n: exp.Pick(60, 400, 0)},
		{name: "char", dim: 30, n: exp.Pick(100, 600, 0)},
		{name: "uniform", dim: 2, n: exp.Pick(100, 1000, 10000)},
	}
	if exp.CurrentProfile() == exp.Smoke {
		datasets = datasets[4:] // CHAR and UNIFORM: seconds, no large files
	}
	var runs []exp.Run
	for _, d := range datasets {
		for _, a := range exp.Algorithms() {
			epochs := exp.Pick(20, 200, 0) // 0: the method's default, with the paper's stopping rule
			if a == "oenn" {
				epochs = exp.Pick(5, 30, 0) // an OENN epoch costs about twenty of SOE's
			}
			keep := exp.KeepNone
			if a == "soe" && (d.name == "uniform" || d.name == "char") {
				keep = exp.KeepView
			}
			runs = append(runs, exp.Run{
				Dataset: d.name, StandIn: d.standIn, N: d.n, Dim: d.dim, Lambda: 2, Algorithm: a,
				MaxEpochs: epochs, Seed: 1, KeepEmbedding: keep,
			})
		}
	}
	if exp.CurrentProfile() != exp.Paper {
		e.Note(fmt.Sprintf("Profile %s caps the epochs (OENN at a few dozen) and subsamples the datasets; "+
			"run `oerun experiments/general.go --profile paper` for the paper's scale.", exp.CurrentProfile()))
	}
	res := e.Run(e.WithinPaperLimits(exp.Repeat(runs, exp.Pick(1, 2, 3))))

	e.Heading("Results")
	e.Text(`Mean ± standard deviation over repetitions. Datasets are columns as in the paper's Figure 2.`)
	e.Table("Test triplet error", res.Table("algorithm", "dataset", exp.TestError))
	e.Table("kNN classification error on the embedding (UNIFORM has no labels)", res.Table("algorithm", "dataset", exp.KNNError))
	e.Table("Running time until convergence (the paper's time measure: until the last check of the stopping rule that improved the train error by ≥ 0.005; 0 when the run stopped before the first check)", res.Table("algorithm", "dataset", exp.ConvergeSeconds))
	e.Table("Wall time of the whole fit", res.Table("algorithm", "dataset", exp.FitSeconds))
	e.Table("Procrustes disparity to the ground truth", res.Table("algorithm", "dataset", exp.Procrustes))
	e.Bars(exp.BarPlot{Title: "Test triplet error", Results: res, Groups: "dataset", Bars: "algorithm", Y: exp.TestError,
		Caption: "Test triplet error per dataset and algorithm (Figure 2, first row); error bars ±1 sd over repetitions."})
	e.Bars(exp.BarPlot{Title: "kNN error", Results: res.Filter(func(r exp.Result) bool { return r.Run.Dataset != "uniform" }),
		Groups: "dataset", Bars: "algorithm", Y: exp.KNNError,
		Caption: "kNN classification error of the embedding (Figure 2, second row)."})
	e.Bars(exp.BarPlot{Title: "Running time", Results: res, Groups: "dataset", Bars: "algorithm", Y: exp.FitSeconds,
		YLabel: "seconds (log scale)", LogY: true, Caption: "Wall time of the fit (Figure 2, third row, shows the time until convergence), log scale."})

	e.Heading("Side by side with the paper (Table 3)")
	e.Text(`The paper's numbers are at full size on a GPU; ours are at this profile's size on the CPU, so times
are not comparable in absolute terms — compare the ranking of the algorithms.`)
	e.Table("Ours against Table 3 of the paper", res.BesideTable3(e.Table3()))

	// What the embeddings look like.
	for _, name := range []string{"uniform", "char"} {
		soe := res.Filter(func(r exp.Result) bool { return r.Run.Dataset == name && r.Run.Algorithm == "soe" && r.Run.Rep == 0 })
		if len(soe) > 0 {
			e.Scatter(fmt.Sprintf("SOE embedding of %s", name), soe[0])
		}
	}
}
