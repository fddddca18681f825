//go:build experiment

// Paper supplement "Choice of parameters and hyper-parameters" (the OENN
// heat maps): train triplet error of OENN as a function of the number of
// items and the hidden-layer width, of the dimension and the width, and of
// the number of items and the length of a random input encoding.
package main

import (
	"fmt"

	"github.com/oe-lab/oe/runner/exp"
)

func main() {
	e := exp.Begin("How wide must OENN be, and how long its input encoding?")
	e.Paper("Supplement, \"Choice of parameters and hyper-parameters\": the heat maps of Figures NetN, NetDim and NetInp")
	e.Text(`The paper picks OENN's hidden-layer width w and input length from simulations: the train triplet
error (n·d·log₂n triplets, λ = 1) over a grid of n and w (d = 2), of d and w (n = 1024), and of n and the
length q of a random input code (w = 100). Its findings: the width needed grows logarithmically with n
and linearly with d, which motivates w = max(120, 2·d·log₂n); a random code of length about log₂n
suffices for a small (5 %) train error. Warmer cells are higher errors.`)

	datasets := exp.PickList([]string{"uniform"}, []string{"uniform", "gmm"}, []string{"uniform", "gmm", "char"})
	ns := exp.PickFloats([]float64{16, 32}, []float64{32, 64, 128, 256, 512}, []float64{64, 128, 256, 512, 1024, 2048, 4096})
	widths := exp.PickFloats([]float64{5, 20}, []float64{5, 10, 20, 40, 80}, []float64{10, 20, 40, 60, 80, 100, 120, 160})
	dims := exp.PickFloats([]float64{2, 4}, []float64{2, 4, 8}, []float64{2, 4, 8, 16, 32, 64})
	lengths := exp.PickFloats([]float64{2, 8}, []float64{1, 2, 4, 8}, []float64{1, 2, 4, 6, 8, 10, 12, 16})
	nForDim := exp.Pick(32, 128, 1024)
	epochs := exp.Pick(10, 100, 0)
	reps := exp.Pick(1, 1, 5)

	// A dataset's d-dimensional version: uniform and gmm are drawn in d
	// dimensions, real data is projected onto its first d principal components.
	run := func(name string, n, d int, params map[string]float64) exp.Run {
		r := exp.Run{Dataset: name, N: n, Dim: d, Lambda: 1, Algorithm: "oenn", Params: params, MaxEpochs: epochs, Seed: 1}
		if name == "uniform" || name == "gmm" {
			r.DataDim = d
		} else {
			r.PCA = d
		}
		return r
	}
	var byN, byDim, byInput []exp.Run
	for _, name := range datasets {
		for _, w := range widths {
			for _, n := range ns {
				if most := exp.MaxItems(name); most > 0 && int(n) > most {
					continue // a real dataset has no more items than its files hold
				}
				byN = append(byN, run(name, int(n), 2, map[string]float64{"width": w}))
			}
			for _, d := range dims {
				byDim = append(byDim, run(name, nForDim, int(d), map[string]float64{"width": w}))
			}
		}
	}
	for _, q := range lengths {
		for _, n := range ns {
			byInput = append(byInput, run("uniform", int(n), 2, map[string]float64{"width": 100, "input": 1, "inputlen": q}))
		}
	}
	resN := e.Run(exp.Repeat(byN, reps))
	resDim := e.Run(exp.Repeat(byDim, reps))
	resInput := e.Run(exp.Repeat(byInput, reps))
	if exp.CurrentProfile() != exp.Paper {
		e.Note(fmt.Sprintf("Profile %s uses a smaller grid (n up to %v, widths up to %v), caps OENN at %d epochs and runs one repetition; the paper averages 5.",
			exp.CurrentProfile(), ns[len(ns)-1], widths[len(widths)-1], epochs))
	}

	e.Heading("Width against the number of items (d = 2)")
	for _, name := range datasets {
		e.ParamHeatMap(exp.HeatMap{Title: fmt.Sprintf("%s: train error by n and width", name), Results: resN.Where("dataset", name),
			X: "n", Y: "param:width", Z: exp.TrainError,
			Caption: fmt.Sprintf("OENN train triplet error on %s (d = 2, n·d·log₂n triplets) by number of items (x, doubling) and hidden-layer width (y) (Figure NetN).", name)})
	}
	e.Heading(fmt.Sprintf("Width against the dimension (n = %d)", nForDim))
	for _, name := range datasets {
		e.ParamHeatMap(exp.HeatMap{Title: fmt.Sprintf("%s: train error by d and width", name), Results: resDim.Where("dataset", name),
			X: "dim", Y: "param:width", Z: exp.TrainError,
			Caption: fmt.Sprintf("OENN train triplet error on %s in d dimensions, embedded in d (x), by hidden-layer width (y) (Figure NetDim).", name)})
	}
	e.Heading("Random input code length against the number of items (w = 100)")
	e.ParamHeatMap(exp.HeatMap{Title: "uniform: train error by n and input length", Results: resInput,
		X: "n", Y: "param:inputlen", Z: exp.TrainError,
		Caption: "OENN train triplet error on uniform points in the unit square by number of items (x) and length q of a random input code (y), width 100 (Figure NetInp)."})
	e.Table("Train triplet error by n (columns) and width, uniform", widthTable(resN.Where("dataset", "uniform")))
}

// widthTable lays the train error out with a row per width.
func widthTable(rs exp.Results) *exp.Table {
	t := exp.NewTable(append([]string{"width \\ n"}, rs.Distinct("n")...)...)
	for _, w := range rs.Distinct("params") {
		sub := rs.Where("params", w)
		row := []string{fmt.Sprint(sub[0].Run.Params["width"])}
		for _, n := range rs.Distinct("n") {
			row = append(row, sub.Where("n", n).Cell(exp.TrainError))
		}
		t.Row(row...)
	}
	return t
}
