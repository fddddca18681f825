//go:build experiment

// Paper §4.6 "What is the effect of noise on the performance of OE
// algorithms?" (Figure 9 and the supplement's increasing-noise figures):
// Bernoulli noise (each triplet flipped with probability p) and Gaussian
// noise (N(0, σ²) added to both distances) at λ = 2.
package main

import (
	"fmt"

	"github.com/oe-lab/oe/runner/exp"
)

// sweep is one panel group: a dataset under one noise model, with the noise
// levels scaled to the dataset (σ is in the data's units).
type sweep struct {
	name, standIn string
	noise         exp.NoiseModel
	dim, n        int
	levels        []float64
}

func main() {
	e := exp.Begin("What is the effect of noise on the performance of OE algorithms?")
	e.Paper("Section 4.6, Figure 9 (USPS Bernoulli, CHAR Gaussian) and the supplement's noise figures")
	e.Text(`The paper flips each training triplet with probability p (Bernoulli noise) or adds N(0, σ²) to
the two distances before comparing them (Gaussian noise), with λ = 2. Its findings: every method
degrades with noise; under low noise SOE matches or beats the rest; under moderate to high noise SOE,
STE, t-STE and CKLx perform alike and beat the Gram-matrix, neural-network and landmark methods. The paper
does not list its σ values: σ here is in the data's units (CHAR pixels range over 0–16, the 2D shape sets
over about 0–40; the USPS loader's grey levels over 0–255, so its σ are 16 times larger). Birch 1 and 3
span about 0–10⁶ on each axis, where σ ≤ 16 perturbs the distances by a few millionths of their range: their
Gaussian panels are runs without noise, repeated.`)

	bernoulli := exp.PickFloats([]float64{0, 0.2}, []float64{0, 0.1, 0.2, 0.3}, []float64{0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5})
	gaussian := exp.PickFloats([]float64{0, 4}, []float64{0, 2, 4, 8}, []float64{0, 1, 2, 4, 8, 16})
	scaled := func(levels []float64, by float64) []float64 {
		out := make([]float64, len(levels))
		for i, l := range levels {
			out[i] = l * by
		}
		return out
	}
	sweeps := []sweep{
		{name: "usps", standIn: "fmnist", noise: exp.Bernoulli, dim: exp.Pick(10, 10, 50), n: exp.Pick(60, 100, 0), levels: bernoulli},
		{name: "char", noise: exp.Gaussian, dim: exp.Pick(10, 10, 30), n: exp.Pick(60, 100, 0), levels: gaussian},
	}
	switch exp.CurrentProfile() {
	case exp.Smoke:
		sweeps = []sweep{{name: "char", standIn: "gmm", noise: exp.Gaussian, dim: 10, n: 60, levels: gaussian},
			{name: "aggregation", standIn: "gmm", noise: exp.Bernoulli, dim: 2, n: 60, levels: bernoulli}}
	case exp.Paper:
		sweeps = append(sweeps,
			sweep{name: "usps", standIn: "fmnist", noise: exp.Gaussian, dim: 50, levels: scaled(gaussian, 16)},
			sweep{name: "char", noise: exp.Bernoulli, dim: 30, levels: bernoulli})
		for _, s := range []string{"aggregation", "compound", "pathbased", "spiral", "birch1", "birch3", "worms"} {
			sweeps = append(sweeps, sweep{name: s, noise: exp.Bernoulli, dim: 2, levels: bernoulli},
				sweep{name: s, noise: exp.Gaussian, dim: 2, levels: gaussian})
		}
	}
	algorithms := exp.PickList([]string{"soe", "ste", "gnmds"}, exp.Algorithms(), exp.Algorithms())

	var runs []exp.Run
	declared := map[string]bool{} // a noiseless run serves both noise models
	for _, s := range sweeps {
		for _, a := range algorithms {
			epochs := exp.Pick(20, 200, 0)
			if a == "oenn" {
				epochs = exp.Pick(5, 50, 0)
			}
			// The 2D sets' embeddings are drawn, by noise level.
			keep := exp.KeepNone
			if s.dim == 2 {
				keep = exp.KeepView
			}
			for _, level := range s.levels {
				r := exp.Run{Dataset: s.name, StandIn: s.standIn, N: s.n, Dim: s.dim, Lambda: 2,
					Algorithm: a, MaxEpochs: epochs, Seed: 1, KeepEmbedding: keep}
				if level > 0 {
					r.Noise, r.NoiseLevel = s.noise, level
				}
				if key := fmt.Sprint(r); !declared[key] {
					declared[key] = true
					runs = append(runs, r)
				}
			}
		}
	}
	res := e.Run(e.WithinPaperLimits(exp.Repeat(runs, exp.Pick(1, 1, 3))))
	if exp.CurrentProfile() != exp.Paper {
		e.Note(fmt.Sprintf("Profile %s uses the two datasets of Figure 9 only, with fewer noise levels and items and capped epochs; run `oerun experiments/noise.go --profile paper` for the supplement's sweep.", exp.CurrentProfile()))
	}

	metrics := []string{exp.TrainError, exp.TestError, exp.Procrustes, exp.KNNError}
	drawn := map[string]bool{} // the 2D sets whose original data is drawn
	for _, s := range sweeps {
		// The noiseless runs (level 0) belong to both noise models' curves.
		sub := res.Filter(func(r exp.Result) bool {
			return r.Run.Dataset == s.name && r.Run.Dim == s.dim && (r.Run.Noise == s.noise || r.Run.NoiseLevel == 0)
		})
		if len(sub) == 0 {
			continue
		}
		label, what := sub[0].Field("dataset"), "Bernoulli flip probability p"
		if s.noise == exp.Gaussian {
			what = "Gaussian noise σ"
		}
		e.Heading(fmt.Sprintf("%s, %s", label, what))
		for _, m := range metrics {
			e.Lines(exp.LinePlot{Title: fmt.Sprintf("%s, %s noise: %s", label, s.noise, exp.Label(m)), Results: sub, X: "noise_level", Y: m,
				Lines: "algorithm", XLabel: what,
				Caption: fmt.Sprintf("%s against the %s on %s, λ = 2 (Figure 9 / supplement).", exp.Label(m), what, label)})
		}
		e.Table(fmt.Sprintf("Test triplet error on %s (rows: method, columns: %s)", label, what), sub.Table("algorithm", "noise_level", exp.TestError))
		e.Collapsed(fmt.Sprintf("Collapsed embeddings on %s, %s", label, what), sub, "noise_level")
		// The supplement draws the 2D sets' embeddings by noise level,
		// beside the original data.
		if s.dim == 2 {
			if !drawn[s.name] {
				drawn[s.name] = true
				e.Original(fmt.Sprintf("%s: the original data", label), sub[0])
			}
			e.EmbeddingGrid(fmt.Sprintf("%s: embeddings by %s", label, what), sub.Filter(func(r exp.Result) bool { return r.Run.Rep == 0 }),
				"algorithm", "noise_level", fmt.Sprintf("The embedding each method learns on %s by %s, λ = 2 (supplement), coloured by class.", label, what))
		}
	}
}
