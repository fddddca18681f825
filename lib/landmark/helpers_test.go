package landmark

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// uniformPoints draws n points uniform in [0,10)^d, the paper's Uniform set.
func uniformPoints(n, d int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 0x0f))
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for c := 0; c < d; c++ {
			x.Set(i, c, 10*rng.Float64())
		}
	}
	return x
}

// sqDist is the squared distance between rows a and b of x.
func sqDist(x *mat.Dense, a, b int) float64 {
	ra, rb := x.RawRowView(a), x.RawRowView(b)
	var s float64
	for c, v := range ra {
		t := v - rb[c]
		s += t * t
	}
	return s
}
