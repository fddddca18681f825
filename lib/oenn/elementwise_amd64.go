package oenn

import "github.com/oe-lab/oe/lib/internal/cpufeature"

// useAVX2 selects the assembly element-wise loops; tests switch it off to
// compare them with their Go twins.
var useAVX2 = cpufeature.AVX2FMA

// biasReLU is biasReLUGo, the multiple-of-8 head in assembly.
func biasReLU(row, b []float32) {
	head := len(row) &^ 7
	if !useAVX2 || head == 0 {
		biasReLUGo(row, b)
		return
	}
	_ = b[len(row)-1]
	biasReLUAVX2(&row[0], &b[0], head)
	biasReLUGo(row[head:], b[head:])
}

// mask is maskGo, the multiple-of-8 head in assembly.
func mask(g, act []float32) {
	head := len(act) &^ 7
	if !useAVX2 || head == 0 {
		maskGo(g, act)
		return
	}
	_ = g[len(act)-1]
	maskAVX2(&g[0], &act[0], head)
	maskGo(g[head:], act[head:])
}

// sumRows is sumRowsGo with the first multiple of 8 columns, up to 64, in
// assembly (eight YMM accumulators kept across the rows).
func sumRows(out, x []float32, rows, stride int) {
	head := min(len(out), 64) &^ 7
	if !useAVX2 || head == 0 || rows == 0 {
		sumRowsGo(out, x, rows, stride)
		return
	}
	_ = x[(rows-1)*stride+len(out)-1]
	sumRowsAVX2(&out[0], &x[0], rows, stride, head)
	sumRowsGo(out[head:], x[head:], rows, stride)
}

// Implemented in elementwise_amd64.s.

//go:noescape
func biasReLUAVX2(row, b *float32, n int)

//go:noescape
func maskAVX2(grad, act *float32, n int)

//go:noescape
func sumRowsAVX2(out, x *float32, rows, stride, n int)
