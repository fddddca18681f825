package tripletloss_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/tripletloss"
	"github.com/oe-lab/oe/lib/triplets"
)

// Embed 200 points of the unit square from ⌈2·n·d·log₂n⌉ triplets with SOE
// and check the embedding against triplets it has not seen.
func ExampleSOE() {
	rng := rand.New(rand.NewPCG(1, 2))
	truth := mat.NewDense(200, 2, nil)
	for i := 0; i < 200; i++ {
		truth.Set(i, 0, rng.Float64())
		truth.Set(i, 1, rng.Float64())
	}
	train, _ := triplets.Random(truth, triplets.Count(2, 200, 2), triplets.Noise{}, 1, 0)
	test, _ := triplets.Random(truth, 5000, triplets.Noise{}, 2, 0)

	res, err := (&tripletloss.SOE{}).Fit(context.Background(), embed.Problem{Dim: 2, Train: train}, embed.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	violated := 0
	for t := 0; t < test.Len(); t++ {
		i, j, k := test.At(t)
		if dist(res.Embedding, i, k) < dist(res.Embedding, i, j) {
			violated++
		}
	}
	fmt.Println("stopped:", res.StopReason)
	fmt.Println("test triplet error below 5%:", float64(violated)/float64(test.Len()) < 0.05)
	// Output:
	// stopped: converged
	// test triplet error below 5%: true
}

func dist(x *mat.Dense, a, b int32) float64 {
	var diff mat.VecDense
	diff.SubVec(x.RowView(int(a)), x.RowView(int(b)))
	return mat.Norm(&diff, 2)
}
