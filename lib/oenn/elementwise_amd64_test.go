package oenn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestElementwiseAssemblyMatchesGo holds the assembly element-wise loops to
// their Go twins bit for bit (any NaN matching any NaN), on lengths with and without tails and on the
// special values ReLU must treat as Go's max does (NaN, ±0, ±Inf).
func TestElementwiseAssemblyMatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("this CPU has no AVX2: only the Go loops run")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1))}
	fill := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			if rng.IntN(6) == 0 {
				v[i] = special[rng.IntN(len(special))]
			} else {
				v[i] = float32(rng.NormFloat64())
			}
		}
		return v
	}
	same := func(name string, n int, a, b []float32) {
		t.Helper()
		for i := range a {
			// A NaN's sign and payload carry nothing: only NaN-ness must agree.
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) && !(a[i] != a[i] && b[i] != b[i]) {
				t.Fatalf("%s n=%d: entry %d is %v (%#x) in assembly, %v (%#x) in Go", name, n, i, a[i], math.Float32bits(a[i]), b[i], math.Float32bits(b[i]))
			}
		}
	}
	for _, n := range []int{1, 7, 8, 9, 64, 100, 648} {
		row, b := fill(n), fill(n)
		goRow := append([]float32(nil), row...)
		biasReLU(row, b)
		biasReLUGo(goRow, b)
		same("biasReLU", n, row, goRow)

		// The activations a mask sees are ReLU outputs: +0 where clamped.
		act := fill(n)
		biasReLUGo(act, make([]float32, n))
		g := fill(n)
		goG := append([]float32(nil), g...)
		mask(g, act)
		maskGo(goG, act)
		same("mask", n, g, goG)

		rows := 1 + rng.IntN(40)
		stride := n + rng.IntN(5)
		x := fill(rows * stride)
		for i := range x {
			if x[i] != x[i] || math.IsInf(float64(x[i]), 0) {
				x[i] = 1 // sums of specials would hide order differences
			}
		}
		out, goOut := fill(n), make([]float32, n)
		for i := range out {
			if out[i] != out[i] || math.IsInf(float64(out[i]), 0) {
				out[i] = 0
			}
		}
		copy(goOut, out)
		sumRows(out, x, rows, stride)
		sumRowsGo(goOut, x, rows, stride)
		same("sumRows", n, out, goOut)
	}
}
