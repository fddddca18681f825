//go:build !amd64

package gram

func axpy4(a, x0, x1, x2, x3, y []float64) { axpy4Go(a, x0, x1, x2, x3, y) }
