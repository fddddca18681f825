package oenn

import "math"

// The element-wise passes of EmbNet around its matrix products. On amd64
// with AVX2 the bulk of each runs in assembly (elementwise_amd64.s); these
// Go loops are their twins: they handle the tails and other CPUs, and the
// tests hold the assembly to them bit for bit.

// biasReLUGo sets row[j] = max(row[j]+b[j], 0), without a branch: the signs
// are random, so a branch would be mispredicted half the time. Go's max
// keeps NaN and turns −0 into +0, so act ≥ 0 has a zero bit pattern exactly
// where the ReLU clamped.
func biasReLUGo(row, b []float32) {
	b = b[:len(row)]
	for j, v := range row {
		row[j] = max(v+b[j], 0)
	}
}

// maskGo zeroes g[i] where act[i] is +0, building the mask without a branch.
func maskGo(g, act []float32) {
	g = g[:len(act)]
	for i, v := range act {
		b := math.Float32bits(v)
		keep := -((b | -b) >> 31) // all ones where v ≠ +0, else zero
		g[i] = math.Float32frombits(math.Float32bits(g[i]) & keep)
	}
}

// sumRowsGo adds to out the first len(out) entries of rows consecutive rows
// of x, stride floats apart, in row order.
func sumRowsGo(out, x []float32, rows, stride int) {
	for i := 0; i < rows; i++ {
		for j, v := range x[i*stride : i*stride+len(out)] {
			out[j] += v
		}
	}
}
