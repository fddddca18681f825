//go:build experiment

// Paper §4.8 "How do Methods scale on CPU vs GPU?" (Figure 12): running time
// of every method against n on MNIST and the Gaussian mixture, on the CPU
// and on the GPU, on log–log axes.
package main

import (
	"fmt"
	"strings"

	"github.com/oe-lab/oe/runner/exp"
)

func main() {
	e := exp.Begin("How do Methods scale on CPU vs GPU?")
	e.Paper("Section 4.8, Figure 12")
	e.Text(`The paper times every method on small subsets of MNIST (d = 30, its Table 2) and of the Gaussian mixture (d = 2),
on a CPU and on a GPU, with growing n. Its findings: on log–log axes the methods over the embedding grow
linearly in n and the Gram-matrix methods quadratically; GNMDS and CKL are fast because they need few
iterations; every method is much faster on the GPU; LOE and LLOE are not faster than the rest on either.`)

	type source struct {
		name, standIn string
		dim           int
		ns            []float64
	}
	sources := []source{
		{name: "mnist", standIn: "fmnist", dim: 30, ns: exp.PickFloats(nil, []float64{100, 200, 300}, []float64{500, 1000, 2000, 5000})},
		{name: "gmm", dim: 2, ns: exp.PickFloats([]float64{50, 100}, []float64{100, 200, 400}, []float64{500, 1000, 2000, 5000})},
	}
	if exp.CurrentProfile() == exp.Smoke {
		sources = sources[1:]
	}
	algorithms := exp.PickList([]string{"soe", "ste", "gnmds"}, exp.Algorithms(), exp.Algorithms())
	// Quick and paper declare the GPU runs wherever the script runs: a
	// machine without a GPU leaves them missing, and reads them once a GPU
	// machine's shard is folded into results.db (bench/gpu.md). Smoke, which
	// checks that the script runs on the machine at hand, declares them only
	// where a GPU answers.
	backends := []string{"cpu"}
	switch err := e.TryBackend("gpu"); {
	case err == nil:
		backends = append(backends, "gpu")
	case exp.CurrentProfile() == exp.Smoke:
		e.Note(fmt.Sprintf("No GPU rows: this machine runs no GPU runs (%v), and the smoke profile declares only runs it can execute.", err))
	default:
		backends = append(backends, "gpu")
		e.Note(fmt.Sprintf("This machine runs no GPU runs (%v): the GPU rows are those results.db holds, executed on a GPU machine "+
			"(`oerun run --backend cuda --shard 0/1 --db gpu-runs.db` with oerun built by `make cuda`, bench/gpu-device.sh) "+
			"and folded in with `oerun merge results.db gpu-runs.db`; the missing ones are listed by `oerun plan --backend cuda`.", err))
	}
	// The paper ran every method on its GPU; here only some have a GPU
	// implementation, and the others get CPU rows alone.
	onGPU := map[string]bool{}
	for _, a := range exp.OnBackend(algorithms, "gpu") {
		onGPU[a] = true
	}
	var cpuOnly []string
	for _, a := range algorithms {
		if !onGPU[a] {
			cpuOnly = append(cpuOnly, a)
		}
	}
	if len(cpuOnly) > 0 {
		e.Note("Methods without a GPU implementation in oe, which have CPU rows only: " + strings.Join(cpuOnly, ", ") + ".")
	}

	var runs []exp.Run
	for _, s := range sources {
		for _, a := range algorithms {
			// Quick and paper run each fit to the stopping rule, whose time
			// to converge is the paper's running time; smoke caps the epochs.
			epochs := exp.Pick(20, 0, 0)
			if a == "oenn" {
				epochs = exp.Pick(5, 0, 0)
			}
			for _, n := range s.ns {
				for _, b := range backends {
					if b == "gpu" && !onGPU[a] {
						continue
					}
					runs = append(runs, exp.Run{Dataset: s.name, StandIn: s.standIn, N: int(n), Dim: s.dim, Lambda: 2,
						Algorithm: a, MaxEpochs: epochs, Seed: 1, Backend: b})
				}
			}
		}
	}
	res := e.Run(exp.Repeat(runs, exp.Pick(1, 1, 3)))
	if exp.CurrentProfile() != exp.Paper {
		e.Note(fmt.Sprintf("Profile %s uses smaller n; compare the slopes, not the levels.", exp.CurrentProfile()))
	}

	for _, s := range sources {
		for _, b := range backends {
			sub := res.Filter(func(r exp.Result) bool { return r.Run.Dataset == s.name && r.Field("backend") == b })
			if len(sub) == 0 {
				continue
			}
			label := sub[0].Field("dataset")
			e.Heading(fmt.Sprintf("%s on the %s", label, b))
			e.Lines(exp.LinePlot{Title: fmt.Sprintf("%s: %s time", label, b), Results: sub, X: "n", Y: exp.FitSeconds, Lines: "algorithm",
				LogX: true, LogY: true, XLabel: "number of items n (log scale)", YLabel: "wall time of the fit, s (log scale)",
				Caption: fmt.Sprintf("%s running time against n on %s, d = %d (Figure 12, %s panel); log–log axes, so the slope is the growth exponent.", b, label, s.dim, b)})
			e.Table(fmt.Sprintf("%s wall time of the fit on %s (rows: method, columns: n)", b, label), sub.Table("algorithm", "n", exp.FitSeconds))
			e.Table(fmt.Sprintf("%s time until convergence on %s, the paper's measure (until the stopping rule's last improving check)", b, label), sub.Table("algorithm", "n", exp.ConvergeSeconds))
			e.Table(fmt.Sprintf("Epochs run on %s (%s)", label, b), sub.Table("algorithm", "n", exp.Epochs))
		}
	}
}
