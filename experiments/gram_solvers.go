//go:build experiment

// Beyond the paper: are the Gram-matrix methods poor because of their
// objectives or because of the solver? Each of CKL, GNMDS and FORTE against
// the same objective minimised over the embedding X (K = XXᵀ): CKL-x,
// GNMDS-x and STE (FORTE's logistic loss is STE's), with Adam as the paper
// runs the embedding methods and with L-BFGS on the full batch as cblearn
// and van der Maaten's code do, on the general experiment's datasets up to
// the Gram methods' 10,000 items and at the noise experiment's levels.
package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/oe-lab/oe/runner/exp"
)

// dataset is one dataset of the general experiment with its embedding
// dimension (as general.go declares them) and this profile's size.
type dataset struct {
	name, standIn string
	dim, n        int
}

// method is an algorithm with an optimiser ("": its default).
type method struct{ algorithm, optimizer string }

// noiseSweep is one dataset of the noise experiment under one noise model,
// at its levels (as noise.go declares them).
type noiseSweep struct {
	dataset
	noise  exp.NoiseModel
	levels []float64
}

func main() {
	e := exp.Begin("Are the Gram-matrix methods worse, or is their solver?")
	e.Paper("Section 4.2 (\"Gram matrix approaches are the worst performing methods with the exception of FORTE\", also 4.4 and the supplement); not a figure of the paper")
	e.Text(`The paper minimises GNMDS's and CKL's objectives by Adam steps on the Gram matrix K, each followed
by a projection onto the PSD matrices of rank d, and FORTE's by projected gradient steps with a line search; it
finds them the worst methods but for FORTE. Written over an embedding X with K = XXᵀ, the same objectives are
per-triplet losses of the squared distances: GNMDS-x (GNMDS's hinge and trace term), CKL-x (CKL's likelihood,
which the paper also runs) and STE (FORTE's logistic loss log(1 + exp(dᵢⱼ − dᵢₖ)) is STE's −log p). Here
each Gram method runs beside its factored form, the factored forms with Adam (the paper's optimiser for the
embedding methods) and with L-BFGS on the full batch (cblearn's and van der Maaten's), and SOE as the
reference, on the datasets of the general experiment that the paper runs the Gram methods on (at most 10,000
items) and at the noise experiment's Bernoulli levels.`)

	// The general experiment's datasets; those the Gram methods run on at
	// the paper's size are kept (WithinPaperLimits would drop their runs
	// above 10,000 items and leave the factored forms alone).
	general := []dataset{
		{name: "mnist", standIn: "fmnist", dim: 50},
		{name: "covtype", standIn: "fmnist", dim: 30},
		{name: "fmnist", dim: 50},
		{name: "usps", standIn: "fmnist", dim: 50, n: exp.Pick(60, 400, 0)},
		{name: "char", dim: 30, n: exp.Pick(100, 600, 0)},
		{name: "uniform", dim: 2, n: exp.Pick(100, 1000, 10000)},
	}
	gram := exp.Algorithms(exp.FamilyGram)
	var kept []dataset
	for _, d := range general {
		if !exp.PaperExcludes(exp.Run{Dataset: d.name, Algorithm: gram[0]}) {
			kept = append(kept, d)
		}
	}
	bernoulli := exp.PickFloats([]float64{0, 0.2}, []float64{0, 0.1, 0.2, 0.3}, []float64{0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5})
	sweeps := []noiseSweep{{dataset: dataset{name: "char", dim: exp.Pick(10, 10, 30), n: exp.Pick(60, 100, 0)}, noise: exp.Bernoulli, levels: bernoulli}}
	if exp.CurrentProfile() == exp.Smoke {
		kept = kept[len(kept)-2:] // CHAR and UNIFORM: seconds, no large files
		sweeps[0].standIn = "gmm"
	}

	// The methods: each Gram method, its factored form with each optimiser,
	// and SOE.
	methods := []method{{algorithm: "soe"}}
	for _, g := range gram {
		methods = append(methods, method{algorithm: g}, method{algorithm: exp.Factored(g)}, method{algorithm: exp.Factored(g), optimizer: "lbfgs"})
	}
	runFor := func(d dataset, m method) exp.Run {
		return exp.Run{Dataset: d.name, StandIn: d.standIn, N: d.n, Dim: d.dim, Lambda: 2, Algorithm: m.algorithm,
			Optimizer: m.optimizer, MaxEpochs: exp.Pick(20, 200, 0), Seed: 1}
	}
	var runs []exp.Run
	declared := map[string]bool{} // a noiseless sweep run may be a general one
	add := func(r exp.Run) {
		if key := fmt.Sprint(r); !declared[key] {
			declared[key] = true
			runs = append(runs, r)
		}
	}
	for _, d := range kept {
		for _, m := range methods {
			add(runFor(d, m))
		}
	}
	for _, s := range sweeps {
		for _, level := range s.levels {
			for _, m := range methods {
				r := runFor(s.dataset, m)
				if level > 0 {
					r.Noise, r.NoiseLevel = s.noise, level
				}
				add(r)
			}
		}
	}
	res := e.Run(e.WithinPaperLimits(exp.Repeat(runs, exp.Pick(1, 1, 3))))
	if exp.CurrentProfile() != exp.Paper {
		e.Note(fmt.Sprintf("Profile %s subsamples the datasets and caps the epochs at %d; run `oerun experiments/gram_solvers.go --profile paper` for the paper's sizes.",
			exp.CurrentProfile(), exp.Pick(20, 200, 0)))
	}

	// label names a method with its optimiser: "cklx (lbfgs)".
	label := func(r exp.Result) string {
		if r.Run.Optimizer == "" {
			return r.Run.Algorithm
		}
		return r.Run.Algorithm + " (" + r.Run.Optimizer + ")"
	}
	byLabel := func(rs exp.Results, l string) exp.Results {
		return rs.Filter(func(r exp.Result) bool { return label(r) == l })
	}
	inGeneral := func(r exp.Result) bool {
		for _, d := range kept {
			if r.Run.Dataset == d.name && r.Run.Dim == d.dim && r.Run.N == d.n && r.Run.NoiseLevel == 0 {
				return true
			}
		}
		return false
	}
	noiseless := res.Filter(inGeneral)
	e.Heading("Without noise")
	e.Table("Test triplet error, default optimisers (rows: method, columns: dataset)", noiseless.Where("optimizer", "default").Table("algorithm", "dataset", exp.TestError))
	e.Table("Test triplet error with L-BFGS (the factored forms only)", noiseless.Where("optimizer", "lbfgs").Table("algorithm", "dataset", exp.TestError))
	e.Table("Wall time of the fit, default optimisers", noiseless.Where("optimizer", "default").Table("algorithm", "dataset", exp.FitSeconds))
	e.Table("Wall time of the fit, L-BFGS", noiseless.Where("optimizer", "lbfgs").Table("algorithm", "dataset", exp.FitSeconds))
	e.Table("Running time until convergence (the paper's measure), default optimisers", noiseless.Where("optimizer", "default").Table("algorithm", "dataset", exp.ConvergeSeconds))

	e.Heading("Bernoulli noise")
	for _, s := range sweeps {
		// The noiseless runs (level 0) start each curve.
		sub := res.Filter(func(r exp.Result) bool {
			return r.Run.Dataset == s.name && r.Run.Dim == s.dim && r.Run.N == s.n && (r.Run.Noise == s.noise || r.Run.NoiseLevel == 0)
		})
		if len(sub) == 0 {
			continue
		}
		name := sub[0].Field("dataset")
		e.Table(fmt.Sprintf("Test triplet error on %s, d = %d, default optimisers (rows: method, columns: flip probability p)", name, s.dim),
			sub.Where("optimizer", "default").Table("algorithm", "noise_level", exp.TestError))
		e.Table(fmt.Sprintf("Test triplet error on %s, d = %d, L-BFGS (factored forms)", name, s.dim),
			sub.Where("optimizer", "lbfgs").Table("algorithm", "noise_level", exp.TestError))
	}

	// The verdicts, per dataset (and noise level).
	group := func(r exp.Result) string {
		return fmt.Sprintf("%s (n %s, d %s), p = %s", r.Field("dataset"), r.Field("n"), r.Field("dim"), r.Field("noise_level"))
	}
	mean := func(rs exp.Results, l string) float64 { return byLabel(rs, l).Mean(exp.TestError) }
	// best returns the lower of the factored form's test errors over the
	// two optimisers.
	best := func(rs exp.Results, factored string) float64 {
		return math.Min(mean(rs, factored), mean(rs, factored+" (lbfgs)"))
	}
	e.Heading("Verdict")
	e.Text(`"Gram-matrix methods are the worst except FORTE", checked on every dataset and noise level (on most of them
for a PASS): (1) do GNMDS-x and CKL-x (each with the better of its two optimisers) reach at most the test error of
GNMDS and CKL; (2) are GNMDS and CKL still the worst when optimised over X, that is, are GNMDS-x and CKL-x both
more than 0.02 above SOE; (3) FORTE, the exception, against its factored form STE: within 0.02 of each other. A
PASS of (1) and a FAIL of (2) say that the finding is about the projected solver, not the objectives.`)
	v1, nums1 := res.EveryGroup(group, func(g exp.Results) (bool, string) {
		holds := true
		var parts []string
		for _, a := range []string{"gnmds", "ckl"} {
			f := exp.Factored(a)
			pg, pf := mean(g, a), best(g, f)
			holds = holds && pf <= pg
			parts = append(parts, fmt.Sprintf("%s %.3f vs %s %.3f", a, pg, f, pf))
		}
		return holds, strings.Join(parts, ", ")
	}, 0.5)
	v2, nums2 := res.EveryGroup(group, func(g exp.Results) (bool, string) {
		soe := mean(g, "soe")
		gx, cx := best(g, exp.Factored("gnmds")), best(g, exp.Factored("ckl"))
		return gx > soe+0.02 && cx > soe+0.02, fmt.Sprintf("soe %.3f, gnmdsx %.3f, cklx %.3f", soe, gx, cx)
	}, 0.5)
	v3, nums3 := res.EveryGroup(group, func(g exp.Results) (bool, string) {
		f, x := mean(g, "forte"), best(g, exp.Factored("forte"))
		return math.Abs(f-x) <= 0.02, fmt.Sprintf("forte %.3f, %s %.3f", f, exp.Factored("forte"), x)
	}, 0.5)
	t := exp.NewTable("check", "verdict", "numbers")
	t.Row("(1) GNMDS-x and CKL-x at most GNMDS's and CKL's test error", string(v1), nums1)
	t.Row("(2) GNMDS and CKL still worst over X: GNMDS-x and CKL-x both > SOE + 0.02", string(v2), nums2)
	t.Row("(3) FORTE and its factored form within 0.02", string(v3), nums3)
	e.Table("Checks", t)
	switch {
	case v1 == exp.NotChecked || v2 == exp.NotChecked:
		e.Text("Not checked: the runs are missing at this profile.")
	case v1 == exp.Pass && v2 == exp.Fail:
		e.Text("Over X, GNMDS's and CKL's objectives match or beat the projected solver and are not both among the worst: here the paper's finding is about the projected solver, not the objectives.")
	case v1 == exp.Pass:
		e.Text("GNMDS-x and CKL-x match or beat the projected solver, yet both still trail SOE by more than 0.02 on most groups: the solver costs accuracy, and the objectives are weaker too.")
	default:
		e.Text("GNMDS-x and CKL-x do not beat GNMDS and CKL on most groups here: at this profile the finding holds of the objectives, not only of the solver.")
	}
}
