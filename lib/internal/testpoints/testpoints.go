// Package testpoints draws the ground-truth point sets that oe's tests embed:
// one generator, so that every package's tests mean the same thing by "n
// uniform points" and a change to it is made once.
package testpoints

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Uniform returns n points drawn uniformly from the unit cube [0, 1]^d,
// row by row, from a PCG stream fixed by seed: the same seed gives the same
// points on every machine.
func Uniform(n, d int, seed uint64) *mat.Dense {
	return draw(n, d, rand.New(rand.NewPCG(seed, 1)).Float64)
}

// Gaussian returns n points with independent standard normal coordinates in
// d dimensions, row by row, from a PCG stream fixed by seed (another stream
// than Uniform's).
func Gaussian(n, d int, seed uint64) *mat.Dense {
	return draw(n, d, rand.New(rand.NewPCG(seed, 2)).NormFloat64)
}

// draw fills an n×d matrix row by row with coordinates from next.
func draw(n, d int, next func() float64) *mat.Dense {
	data := make([]float64, n*d)
	for i := range data {
		data[i] = next()
	}
	return mat.NewDense(n, d, data)
}
