package landmark_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/landmark"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

// Embed 500 uniform points of the plane from LOE's active queries, and check
// the result on fresh triplets.
func ExampleLOE() {
	rng := rand.New(rand.NewPCG(1, 1))
	x := mat.NewDense(500, 2, nil)
	for i := 0; i < 500; i++ {
		x.Set(i, 0, 10*rng.Float64())
		x.Set(i, 1, 10*rng.Float64())
	}
	oracle, _ := triplets.NewOracle(x, triplets.Noise{}, 1)
	loe := &landmark.LOE{}
	res, err := loe.Fit(context.Background(), embed.Problem{Dim: 2, Oracle: oracle}, embed.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	budget, _ := loe.Budget(500, 2)
	test, _ := triplets.Random(x, 10_000, triplets.Noise{}, 2, 1)
	fmt.Println("queries:", res.Queries, "budget:", budget)
	fmt.Println("test triplet error below 0.35:", metrics.TripletError(res.Embedding, test) < 0.35)
	// Output:
	// queries: 22410 budget: 22410
	// test triplet error below 0.35: true
}

// LLOE through the registry, as the command line builds it.
func ExampleLLOE() {
	rng := rand.New(rand.NewPCG(1, 1))
	x := mat.NewDense(400, 2, nil)
	for i := 0; i < 400; i++ {
		x.Set(i, 0, 10*rng.Float64())
		x.Set(i, 1, 10*rng.Float64())
	}
	oracle, _ := triplets.NewOracle(x, triplets.Noise{}, 1)
	alg, err := embed.New("lloe", embed.Params{"phase2_lr": 0.5})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := alg.Fit(context.Background(), embed.Problem{Dim: 2, Oracle: oracle}, embed.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	budget, _ := alg.(*landmark.LLOE).Budget(400, 2)
	test, _ := triplets.Random(x, 10_000, triplets.Noise{}, 2, 1)
	fmt.Println("within budget:", res.Queries <= budget)
	fmt.Println("test triplet error below 0.1:", metrics.TripletError(res.Embedding, test) < 0.1)
	// Output:
	// within budget: true
	// test triplet error below 0.1: true
}
