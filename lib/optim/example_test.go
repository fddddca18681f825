package optim_test

import (
	"fmt"

	"github.com/oe-lab/oe/lib/optim"
)

// The first Adam step moves every parameter by about the learning rate,
// against the sign of its gradient, whatever the gradient's scale.
func ExampleAdam() {
	adam, err := optim.NewAdam[float32](3, 1)
	if err != nil {
		panic(err)
	}
	x := []float32{0, 0, 0}
	if err := adam.Step(x, []float32{1000, -0.001, 2}); err != nil {
		panic(err)
	}
	fmt.Printf("%.3f\n", x)
	// Output: [-1.000 1.000 -1.000]
}

// L-BFGS minimises (x−3)² + (y+1)² in a few iterations.
func ExampleLBFGS() {
	bowl := func(grad, x []float64) float64 {
		grad[0], grad[1] = 2*(x[0]-3), 2*(x[1]+1)
		return (x[0]-3)*(x[0]-3) + (x[1]+1)*(x[1]+1)
	}
	x := []float64{0, 0}
	if _, _, err := (optim.LBFGS{FuncGrad: bowl, MaxIterations: 100}).Minimize(x); err != nil {
		panic(err)
	}
	fmt.Printf("%.4f\n", x)
	// Output: [3.0000 -1.0000]
}
