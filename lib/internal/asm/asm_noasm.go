//go:build !amd64 || noasm

package asm

// Without assembly (another architecture, or the noasm build tag) the Go
// twins run.

func biasReLU(row, b []float32) { biasReLUGo(row, b) }

func maskReLU(g, act []float32) { maskReLUGo(g, act) }

func sumRows(out, x []float32, rows, stride int) { sumRowsGo(out, x, rows, stride) }

func transpose4Rows(dst []float32, w int, x []float32, stride, n int) {
	transpose4RowsGo(dst, w, x, stride, n)
}

func softplusSigmoids(z, softplus, sigmoid []float64) { softplusSigmoidsGo(z, softplus, sigmoid) }

func axpy4Rows(a []float64, rows []int32, x []float64, stride int, y []float64) {
	axpy4RowsGo(a, rows, x, stride, y)
}

func mulAdd4x8(k int, a []float64, rs, ls int, b, c []float64, ldc int) {
	mulAdd4x8Go(k, a, rs, ls, b, c, ldc)
}

func amsgradHead32(AdamConstants[float32], []float32, []float32, []float32, []float32, []float32) int {
	return 0
}
