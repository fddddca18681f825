//go:build experiment

// Paper §4.7 "Which Methods scale Better with Sample Size and Input
// Dimension?", increasing input dimension (Figure 10 and the supplement's
// "Increasing original dimension"): a Gaussian mixture and a PCA projection
// of 5,000 MNIST points in growing dimension, embedded in that dimension.
package main

import (
	"fmt"

	"github.com/oe-lab/oe/runner/exp"
)

func main() {
	e := exp.Begin("Which Methods scale Better with Input Dimension?")
	e.Paper("Section 4.7 (increasing input dimension), Figure 10 and the supplement's increasing-original-dimension figures")
	e.Text(`The paper generates data of growing dimension — two well separated Gaussians (GMM) and 5,000
MNIST points projected by PCA — and embeds each in its own dimension (λ = 2). Its findings: every
method's running time grows with the dimension, roughly as d² for SOE, STE, t-STE and CKLx (which optimise
over the n×d embedding) and as d for the Gram-matrix methods; FORTE, OENN and LLOE are much slower than
SOE, STE and t-STE; only SOE keeps a low Procrustes error throughout; LOE does very badly on the GMM.`)

	dims := exp.PickFloats([]float64{2, 5}, []float64{2, 5, 10, 20}, []float64{2, 5, 10, 20, 30, 40, 50})
	type source struct {
		name, standIn string
		n             int
		pca           bool
	}
	sources := []source{
		{name: "gmm", n: exp.Pick(60, 100, 5000)},
		{name: "mnist", standIn: "fmnist", n: exp.Pick(60, 100, 5000), pca: true},
	}
	if exp.CurrentProfile() == exp.Smoke {
		sources = sources[:1]
	}
	algorithms := exp.PickList([]string{"soe", "ste", "gnmds"}, exp.Algorithms(), exp.Algorithms())

	var runs []exp.Run
	for _, s := range sources {
		for _, a := range algorithms {
			epochs := exp.Pick(20, 200, 0)
			if a == "oenn" {
				epochs = exp.Pick(5, 50, 0)
			}
			for _, d := range dims {
				r := exp.Run{Dataset: s.name, StandIn: s.standIn, N: s.n, Dim: int(d), Lambda: 2, Algorithm: a, MaxEpochs: epochs, Seed: 1}
				if s.pca {
					r.PCA = int(d)
				} else {
					r.DataDim = int(d)
				}
				runs = append(runs, r)
			}
		}
	}
	res := e.Run(exp.Repeat(runs, exp.Pick(1, 1, 3)))
	if exp.CurrentProfile() != exp.Paper {
		e.Note(fmt.Sprintf("Profile %s uses %d items instead of 5,000, dimensions up to %v, and caps the epochs; times are not comparable with the paper's GPU times, only their growth is.",
			exp.CurrentProfile(), exp.Pick(60, 100, 5000), dims[len(dims)-1]))
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
		e.Heading(label)
		for _, m := range metrics {
			e.Lines(exp.LinePlot{Title: fmt.Sprintf("%s: %s", label, exp.Label(m)), Results: sub, X: "dim", Y: m, Lines: "algorithm",
				LogX: logLog[m], LogY: logLog[m], XLabel: "input = embedding dimension d",
				Caption: fmt.Sprintf("%s against the input dimension on %s (Figure 10 / supplement)%s.", exp.Label(m), label, logNote[logLog[m]])})
		}
		e.Table(fmt.Sprintf("Wall time of the fit on %s (rows: method, columns: d)", label), sub.Table("algorithm", "dim", exp.FitSeconds))
		e.Table(fmt.Sprintf("Procrustes disparity on %s", label), sub.Table("algorithm", "dim", exp.Procrustes))
	}
}
