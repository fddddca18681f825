package oenn_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/oenn"
	"github.com/oe-lab/oe/lib/triplets"
)

// Embed 100 points of the unit square from 2·n·d·log₂n triplets, then read
// the network's shape.
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(100, 2, nil)
	for i := 0; i < 100; i++ {
		x.Set(i, 0, rng.Float64())
		x.Set(i, 1, rng.Float64())
	}
	train, err := triplets.Random(x, triplets.Count(2, 100, 2), triplets.Noise{}, 1, 0)
	if err != nil {
		panic(err)
	}
	alg := &oenn.OENN{}
	res, err := alg.Fit(context.Background(), embed.Problem{Dim: 2, Train: train}, embed.Options{Seed: 1, MaxEpochs: 20})
	if err != nil {
		panic(err)
	}
	m := alg.Model()
	rows, cols := res.Embedding.Dims()
	fmt.Printf("embedding %d×%d; EmbNet: input %d, width %d, output %d\n", rows, cols, m.InputLen(), m.Width(), m.Dim())
	// Output: embedding 100×2; EmbNet: input 7, width 120, output 2
}
