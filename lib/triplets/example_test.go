package triplets_test

import (
	"bytes"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/triplets"
)

// Five points on a line; every generated triplet (i, j, k) puts j nearer to
// i than k.
func ExampleRandom() {
	x := mat.NewDense(5, 1, []float64{0, 1, 3, 6, 10})
	m := triplets.Count(1, 5, 1) // ⌈1·5·1·log₂5⌉ = 12
	s, err := triplets.Random(x, m, triplets.Noise{}, 1, 1)
	if err != nil {
		panic(err)
	}
	for t := 0; t < 4; t++ {
		i, j, k := s.At(t)
		fmt.Printf("x%d=%v is closer to x%d=%v than to x%d=%v\n", i, x.At(int(i), 0), j, x.At(int(j), 0), k, x.At(int(k), 0))
	}
	fmt.Println(s.Len(), "triplets")
	var csv bytes.Buffer
	if err := triplets.WriteCSV(&csv, s.Slice(0, 2)); err != nil {
		panic(err)
	}
	fmt.Print(csv.String())
	// Output:
	// x4=10 is closer to x3=6 than to x1=1
	// x4=10 is closer to x3=6 than to x1=1
	// x1=1 is closer to x3=6 than to x4=10
	// x0=0 is closer to x1=1 than to x3=6
	// 12 triplets
	// # n=5
	// i,j,k
	// 4,3,1
	// 4,3,1
}

// Four training items and one new item (at 2.4): every triplet relates the
// new item to two training items.
func ExampleRandomOutOfSample() {
	x := mat.NewDense(5, 1, []float64{0, 1, 2, 3, 2.4})
	s, err := triplets.RandomOutOfSample(x, 4, 3, triplets.Noise{}, 1)
	if err != nil {
		panic(err)
	}
	for t := 0; t < s.Len(); t++ {
		i, j, k := s.At(t)
		fmt.Printf("new x%d=%v is closer to x%d=%v than to x%d=%v\n", i, x.At(int(i), 0), j, x.At(int(j), 0), k, x.At(int(k), 0))
	}
	// Output:
	// new x4=2.4 is closer to x1=1 than to x0=0
	// new x4=2.4 is closer to x2=2 than to x3=3
	// new x4=2.4 is closer to x2=2 than to x0=0
}

// A triplet (i, j, k) is satisfied only when i is strictly closer to j than
// to k: a tie, or a NaN distance, violates it.
func ExampleViolated() {
	fmt.Println(triplets.Violated(1.0, 2.0), triplets.Violated(2.0, 1.0), triplets.Violated(1.5, 1.5), triplets.Violated(math.NaN(), 1.0))
	// Output: false true true true
}
