package metrics_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

// A quadrilateral and the same shape turned by 90°, halved and moved: the
// embedding is perfect up to a similarity transformation. Swapping two of
// its corners breaks the shape and violates some triplets.
func Example() {
	truth := mat.NewDense(4, 2, []float64{0, 0, 2, 0, 2, 1, 0, 3})
	emb := mat.NewDense(4, 2, []float64{5, 5, 5, 6, 4.5, 6, 3.5, 5})
	swapped := mat.NewDense(4, 2, []float64{5, 5, 5, 6, 3.5, 5, 4.5, 6})

	s, err := triplets.Random(truth, 1000, triplets.Noise{}, 1, 1)
	if err != nil {
		panic(err)
	}
	for _, e := range []*mat.Dense{emb, swapped} {
		p, err := metrics.Procrustes(truth, e)
		if err != nil {
			panic(err)
		}
		fmt.Printf("Procrustes %.3f, triplet error %.3f\n", p, metrics.TripletError(e, s))
	}
	// Output:
	// Procrustes 0.000, triplet error 0.000
	// Procrustes 0.800, triplet error 0.853
}

func ExampleKNNError() {
	// Two groups of 10 points, far apart, labelled by group.
	x := mat.NewDense(20, 1, nil)
	labels := make([]int, 20)
	for i := range 20 {
		x.Set(i, 0, float64(i%10+100*(i/10)))
		labels[i] = i / 10
	}
	e, err := metrics.KNNError(x, labels, 1)
	if err != nil {
		panic(err)
	}
	fmt.Println("kNN error:", e)
	// Output: kNN error: 0
}

func ExampleCrossKNNError() {
	// Training items in two groups far apart, labelled by group; two new
	// items, one near each group, the second labelled wrongly.
	train := mat.NewDense(8, 1, []float64{0, 1, 2, 3, 100, 101, 102, 103})
	trainLabels := []int{0, 0, 0, 0, 1, 1, 1, 1}
	test := mat.NewDense(2, 1, []float64{1.5, 101.5})
	e, err := metrics.CrossKNNError(train, trainLabels, test, []int{0, 0})
	if err != nil {
		panic(err)
	}
	fmt.Println("kNN error of the new items:", e)
	// Output: kNN error of the new items: 0.5
}
