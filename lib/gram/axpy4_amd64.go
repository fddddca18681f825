package gram

import "github.com/oe-lab/oe/lib/internal/cpufeature"

// useAVX2 selects the assembly axpy4; tests switch it off to compare it
// with axpy4Go.
var useAVX2 = cpufeature.AVX2FMA

// axpy4 is axpy4Go with the multiple-of-4 head in assembly. Rows shorter
// than minAVX2 (products with few columns, as at d = 2) stay in Go, where
// the call would cost more than the vector lanes save.
func axpy4(a, x0, x1, x2, x3, y []float64) {
	const minAVX2 = 16
	head := len(y) &^ 3
	if !useAVX2 || len(y) < minAVX2 {
		axpy4Go(a, x0, x1, x2, x3, y)
		return
	}
	_, _, _, _, _ = a[3], x0[len(y)-1], x1[len(y)-1], x2[len(y)-1], x3[len(y)-1]
	axpy4AVX2(&a[0], &x0[0], &x1[0], &x2[0], &x3[0], &y[0], head)
	axpy4Go(a, x0[head:], x1[head:], x2[head:], x3[head:], y[head:])
}

//go:noescape
func axpy4AVX2(a, x0, x1, x2, x3, y *float64, n int)
