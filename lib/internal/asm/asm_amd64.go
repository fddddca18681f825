//go:build !noasm

package asm

import "github.com/oe-lab/oe/lib/internal/cpufeature"

// useAVX2 selects the assembly loops; tests switch it off to compare them
// with the Go twins.
var useAVX2 = cpufeature.AVX2FMA

// axpy4Rows runs every group in assembly, its columns four at a time and
// the last len(y) mod 4 one at a time.
func axpy4Rows(a []float64, rows []int32, x []float64, stride int, y []float64) {
	if !useAVX2 || len(y) == 0 {
		axpy4RowsGo(a, rows, x, stride, y)
		return
	}
	axpy4RowsAVX2(&a[0], &rows[0], &x[0], stride, &y[0], len(y), len(rows)/4)
}

// mulAdd4x8 runs the whole tile in assembly.
func mulAdd4x8(k int, a []float64, rs, ls int, b, c []float64, ldc int) {
	if !useAVX2 {
		mulAdd4x8Go(k, a, rs, ls, b, c, ldc)
		return
	}
	mulAdd4x8AVX2(k, &a[0], rs, ls, &b[0], &c[0], ldc)
}

// biasReLU runs the multiple-of-8 head of row in assembly.
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

// maskReLU runs the multiple-of-8 head of act in assembly.
func maskReLU(g, act []float32) {
	head := len(act) &^ 7
	if !useAVX2 || head == 0 {
		maskReLUGo(g, act)
		return
	}
	_ = g[len(act)-1]
	maskAVX2(&g[0], &act[0], head)
	maskReLUGo(g[head:], act[head:])
}

// sumRows runs the first multiple of 8 columns, up to 64, in assembly
// (eight YMM accumulators kept across the rows).
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

// transpose4Rows runs the multiple-of-8 head of the rows in assembly.
func transpose4Rows(dst []float32, w int, x []float32, stride, n int) {
	head := n &^ 7
	if !useAVX2 || head == 0 {
		transpose4RowsGo(dst, w, x, stride, n)
		return
	}
	transpose4RowsAVX2(&dst[0], w, &x[0], stride, head/8)
	if head < n {
		transpose4RowsGo(dst[head*w:], w, x[head:], stride, n-head)
	}
}

// softplusSigmoids runs the multiple-of-4 head of z in assembly.
func softplusSigmoids(z, softplus, sigmoid []float64) {
	head := len(z) &^ 3
	if !useAVX2 || head == 0 {
		softplusSigmoidsGo(z, softplus, sigmoid)
		return
	}
	_, _ = softplus[len(z)-1], sigmoid[len(z)-1]
	softplusSigmoidAVX2(&z[0], &softplus[0], &sigmoid[0], head)
	softplusSigmoidsGo(z[head:], softplus[head:], sigmoid[head:])
}

// amsgradHead32 runs the multiple-of-8 head of an AMSGrad update of float32
// parameters in assembly and returns its length (0 without AVX2): Adam's Go
// twin does the rest.
func amsgradHead32(k AdamConstants[float32], x, g, m, v, vmax []float32) int {
	head := len(x) &^ 7
	if !useAVX2 || head == 0 {
		return 0
	}
	c := [7]float32{k.Beta1, 1 - k.Beta1, k.Beta2, 1 - k.Beta2, k.StepSize, k.BC2Sqrt, k.Eps}
	amsgradAVX2(&c, &x[0], &g[0], &m[0], &v[0], &vmax[0], head)
	return head
}

// Implemented in asm_amd64.s.

//go:noescape
func amsgradAVX2(c *[7]float32, x, grad, m, v, vmax *float32, n int)

//go:noescape
func softplusSigmoidAVX2(z, softplus, sigmoid *float64, n int)

//go:noescape
func mulAdd4x8AVX2(k int, a *float64, rs, ls int, b, c *float64, ldc int)

//go:noescape
func axpy4RowsAVX2(a *float64, rows *int32, x *float64, stride int, y *float64, n, groups int)

//go:noescape
func biasReLUAVX2(row, b *float32, n int)

//go:noescape
func maskAVX2(grad, act *float32, n int)

//go:noescape
func sumRowsAVX2(out, x *float32, rows, stride, n int)

//go:noescape
func transpose4RowsAVX2(dst *float32, w int, x *float32, stride, blocks int)
