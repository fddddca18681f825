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
