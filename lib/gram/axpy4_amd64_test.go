package gram

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAxpy4AssemblyMatchesGo holds the assembly axpy4 to axpy4Go bit for
// bit, on lengths with and without a tail.
func TestAxpy4AssemblyMatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("this CPU has no AVX2: only axpy4Go runs")
	}
	rng := rand.New(rand.NewPCG(9, 10))
	fill := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
		}
		return v
	}
	for _, n := range []int{1, 3, 4, 5, 8, 16, 17, 31, 45, 100} {
		a, x0, x1, x2, x3 := fill(4), fill(n), fill(n), fill(n), fill(n)
		y := fill(n)
		want := append([]float64(nil), y...)
		axpy4(a, x0, x1, x2, x3, y)
		axpy4Go(a, x0, x1, x2, x3, want)
		for i := range y {
			if math.Float64bits(y[i]) != math.Float64bits(want[i]) {
				t.Fatalf("n=%d: y[%d] = %v in assembly, %v in Go", n, i, y[i], want[i])
			}
		}
	}
}
