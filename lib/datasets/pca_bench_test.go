package datasets

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkProjectPCA projects MNIST-shaped data (60,000 × 784 grey levels)
// onto 50 components, the paper's PCA-MNIST setting.
func BenchmarkProjectPCA(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(60000, 784, nil)
	raw := x.RawMatrix().Data
	for i := range raw {
		raw[i] = float64(rng.IntN(256))
	}
	for b.Loop() {
		if _, err := ProjectPCA(x, 50); err != nil {
			b.Fatal(err)
		}
	}
}
