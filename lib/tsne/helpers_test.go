package tsne

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// gaussianClusters returns n points in dim dimensions, point i around centre
// i mod k (centres drawn with standard deviation spread, unit noise), and
// each point's cluster label.
func gaussianClusters(k, n, dim int, spread float64, seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	centres := make([]float64, k*dim)
	for t := range centres {
		centres[t] = spread * rng.NormFloat64()
	}
	x := mat.NewDense(n, dim, nil)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % k
		labels[i] = c
		for d := 0; d < dim; d++ {
			x.Set(i, d, centres[c*dim+d]+rng.NormFloat64())
		}
	}
	return x, labels
}

// knnPurity is the fraction of the k nearest neighbours (in the rows of y)
// that share the point's label, averaged over all points.
func knnPurity(y *mat.Dense, labels []int, k int) float64 {
	n, _ := y.Dims()
	raw := y.RawMatrix()
	nbr, _ := nearestNeighbours(raw, k, 1)
	same := 0
	for i := 0; i < n; i++ {
		for _, j := range nbr[i*k : (i+1)*k] {
			if labels[j] == labels[i] {
				same++
			}
		}
	}
	return float64(same) / float64(n*k)
}
