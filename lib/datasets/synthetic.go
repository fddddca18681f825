package datasets

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// gmmOffset is the coordinate of the second GMM centre, 100·1.
const gmmOffset = 100

// generateGMM draws n points from two unit-variance Gaussians in dim
// dimensions, the first ⌊n/2⌋ centred at 0 (label 0) and the rest at 100·1
// (label 1).
func generateGMM(n, dim int, seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 0x6d6d))
	x := mat.NewDense(n, dim, nil)
	labels := make([]int, n)
	raw := x.RawMatrix()
	for i := 0; i < n; i++ {
		centre := 0.0
		if i >= n/2 {
			centre, labels[i] = gmmOffset, 1
		}
		row := raw.Data[i*raw.Stride : i*raw.Stride+dim]
		for j := range row {
			row[j] = centre + rng.NormFloat64()
		}
	}
	return x, labels
}

// uniformSide is the side of the cube [0, 10]^dim.
const uniformSide = 10

// generateUniform draws n points uniformly from [0, 10)^dim.
func generateUniform(n, dim int, seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 0x756e))
	x := mat.NewDense(n, dim, nil)
	raw := x.RawMatrix()
	for i := range raw.Data {
		raw.Data[i] = uniformSide * rng.Float64()
	}
	return x, nil
}
