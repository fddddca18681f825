package tsne_test

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/tsne"
)

// Two well-separated blobs in 5-D stay apart in the 2-D view.
func ExampleEmbed() {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(60, 5, nil)
	for i := 0; i < 60; i++ {
		offset := 0.0
		if i >= 30 {
			offset = 20
		}
		for d := 0; d < 5; d++ {
			x.Set(i, d, offset+rng.NormFloat64())
		}
	}
	y, err := tsne.Embed(x, tsne.Options{Perplexity: 10, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	rows, cols := y.Dims()
	// Count the points that lie nearer their own blob's centroid than the
	// other blob's.
	var c [2][2]float64
	for i := 0; i < rows; i++ {
		c[i/30][0] += y.At(i, 0) / 30
		c[i/30][1] += y.At(i, 1) / 30
	}
	correct := 0
	for i := 0; i < rows; i++ {
		d0 := sq(y.At(i, 0)-c[0][0]) + sq(y.At(i, 1)-c[0][1])
		d1 := sq(y.At(i, 0)-c[1][0]) + sq(y.At(i, 1)-c[1][1])
		if (d0 < d1) == (i < 30) {
			correct++
		}
	}
	fmt.Printf("%d×%d embedding, %d of %d points nearer their own blob's centre\n", rows, cols, correct, rows)
	// Output: 60×2 embedding, 60 of 60 points nearer their own blob's centre
}

func sq(v float64) float64 { return v * v }
