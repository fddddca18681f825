package crossval_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	_ "github.com/oe-lab/oe/lib/algorithms"
	"github.com/oe-lab/oe/lib/crossval"
	"github.com/oe-lab/oe/lib/triplets"
)

// Which d predicts held-out answers about 30 points on a 6 × 5 grid best?
func ExampleRun() {
	x := mat.NewDense(30, 2, nil)
	for i := range 30 {
		x.Set(i, 0, float64(i%6))
		x.Set(i, 1, float64(i/6)*1.3)
	}
	s, err := triplets.Random(x, 1200, triplets.Noise{}, 1, 1)
	if err != nil {
		panic(err)
	}
	res, err := crossval.Run(context.Background(), s, crossval.Config{
		Methods: []crossval.Method{{Name: "soe"}}, Dims: []int{1, 2, 3}, Folds: 4, Seed: 1,
	})
	if err != nil {
		panic(err)
	}
	for _, c := range res.Cells {
		fmt.Printf("d=%d: held-out error %.2f\n", c.Dim, c.Mean)
	}
	fmt.Printf("best d=%d, smallest within one SE d=%d\n", res.Choices[0].Best, res.Choices[0].OneSE)
	// Output:
	// d=1: held-out error 0.26
	// d=2: held-out error 0.04
	// d=3: held-out error 0.06
	// best d=2, smallest within one SE d=2
}
