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
	train, test := unitSquare()
	res, err := (&tripletloss.SOE{}).Fit(context.Background(), embed.Problem{Dim: 2, Train: train}, embed.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println("stopped:", res.StopReason)
	fmt.Println("test triplet error below 5%:", violated(res.Embedding, test) < 0.05)
	// Output:
	// stopped: converged
	// test triplet error below 5%: true
}

// unitSquare returns ⌈2·n·d·log₂n⌉ training and 5,000 test triplets of 200
// points uniform in the unit square.
func unitSquare() (train, test *triplets.Set) {
	rng := rand.New(rand.NewPCG(1, 2))
	truth := mat.NewDense(200, 2, nil)
	for i := 0; i < 200; i++ {
		truth.Set(i, 0, rng.Float64())
		truth.Set(i, 1, rng.Float64())
	}
	train, _ = triplets.Random(truth, triplets.Count(2, 200, 2), triplets.Noise{}, 1, 0)
	test, _ = triplets.Random(truth, 5000, triplets.Noise{}, 2, 0)
	return train, test
}

// violated returns the share of test triplets (i, j, k) that x violates:
// ‖xᵢ−xₖ‖ < ‖xᵢ−xⱼ‖.
func violated(x *mat.Dense, test *triplets.Set) float64 {
	bad := 0
	for t := 0; t < test.Len(); t++ {
		i, j, k := test.At(t)
		if dist(x, i, k) < dist(x, i, j) {
			bad++
		}
	}
	return float64(bad) / float64(test.Len())
}

func dist(x *mat.Dense, a, b int32) float64 {
	var diff mat.VecDense
	diff.SubVec(x.RowView(int(a)), x.RowView(int(b)))
	return mat.Norm(&diff, 2)
}

// GNMDS's objective over X (GNMDS-x), minimised by L-BFGS on the full
// batch: one iteration an epoch, stopped by the paper's rule.
func ExampleGNMDSX() {
	train, test := unitSquare()
	res, err := (&tripletloss.GNMDSX{}).Fit(context.Background(), embed.Problem{Dim: 2, Train: train},
		embed.Options{Seed: 1, Optimizer: embed.OptimizerLBFGS})
	if err != nil {
		panic(err)
	}
	fmt.Println("stopped:", res.StopReason)
	fmt.Println("test triplet error below 5%:", violated(res.Embedding, test) < 0.05)
	// Output:
	// stopped: converged
	// test triplet error below 5%: true
}
