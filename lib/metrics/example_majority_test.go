package metrics_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

// Three people answered "is 1 or 2 closer to 0?", two of them wrongly for
// this embedding; two answered a second query and disagreed.
func ExampleMajorityError() {
	emb := mat.NewDense(3, 1, []float64{0, 1, 3})
	answers := &triplets.Set{N: 3, Idx: []int32{
		0, 1, 2, // 1 is closer to 0 than 2 is
		0, 2, 1,
		0, 2, 1,
		1, 0, 2, // a tie: left out
		1, 2, 0,
	}}
	fmt.Printf("triplet error %.1f, majority error %.1f\n", metrics.TripletError(emb, answers), metrics.MajorityError(emb, answers))
	// Output: triplet error 0.6, majority error 1.0
}
