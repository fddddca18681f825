package gram

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestDenseProductIsGonums holds mul to gonum's Dense.Mul bit for bit, for A
// and Aᵀ, on shapes with and without edge strips and panels, inner
// dimensions across the packing block, operands that are views of wider
// matrices, entries of A that are exactly zero (which Dgemm skips), and any
// number of goroutines; dst is a view whose neighbouring columns must keep
// their values.
func TestDenseProductIsGonums(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	random := func(r, c int) *mat.Dense {
		// A view of a wider matrix, so strides differ from widths.
		x := mat.NewDense(r, c+3, nil)
		for i := 0; i < r; i++ {
			for j := 0; j < c+3; j++ {
				v := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
				if rng.IntN(5) == 0 {
					v = 0
				}
				x.Set(i, j, v)
			}
		}
		return x.Slice(0, r, 1, c+1).(*mat.Dense)
	}
	for _, m := range []int{1, 3, 4, 9, 76} {
		for _, k := range []int{1, 5, 256, 300, 513} {
			for _, n := range []int{1, 7, 8, 19} {
				for _, aTrans := range []bool{false, true} {
					a := random(m, k)
					if aTrans {
						a = random(k, m)
					}
					b := random(k, n)
					var want mat.Dense
					if aTrans {
						want.Mul(a.T(), b)
					} else {
						want.Mul(a, b)
					}
					for _, threads := range []int{1, 2, 3} {
						whole := mat.NewDense(m, n+2, nil)
						for i := 0; i < m; i++ {
							for j := 1; j <= n; j++ {
								whole.Set(i, j, math.NaN()) // mul overwrites, never adds to, dst
							}
							whole.Set(i, 0, -1)
							whole.Set(i, n+1, -2)
						}
						got := whole.Slice(0, m, 1, n+1).(*mat.Dense)
						p := denseProduct{threads: threads}
						p.mul(got, a, aTrans, b)
						for i := 0; i < m; i++ {
							if whole.At(i, 0) != -1 || whole.At(i, n+1) != -2 {
								t.Fatalf("m=%d k=%d n=%d transposed=%v threads=%d: wrote outside dst in row %d", m, k, n, aTrans, threads, i)
							}
							for j := 0; j < n; j++ {
								if g, w := got.At(i, j), want.At(i, j); math.Float64bits(g) != math.Float64bits(w) {
									t.Fatalf("m=%d k=%d n=%d transposed=%v threads=%d: (%d,%d) = %v, gonum %v", m, k, n, aTrans, threads, i, j, g, w)
								}
							}
						}
					}
				}
			}
		}
	}
}

// BenchmarkDenseProduct compares mul with gonum's Dense.Mul on the Krylov
// solver's two shapes at the USPS size (n = 7,291, d = 50: blocks of 75
// columns, a basis of 225): the Rayleigh–Ritz block Qᵀ(AQ) and the Ritz
// vectors Q·Y.
func BenchmarkDenseProduct(b *testing.B) {
	const n, basis, block, k = 7291, 225, 75, 50
	rng := rand.New(rand.NewPCG(23, 24))
	fill := func(r, c int) *mat.Dense {
		x := mat.NewDense(r, c, nil)
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				x.Set(i, j, rng.NormFloat64())
			}
		}
		return x
	}
	q, aq, y := fill(n, basis), fill(n, block), fill(basis, k)
	for _, c := range []struct {
		name   string
		a      *mat.Dense
		aTrans bool
		b      *mat.Dense
	}{{"QᵀAQ", q, true, aq}, {"QY", q, false, y}} {
		b.Run(c.name+"/gonum", func(b *testing.B) {
			var dst mat.Dense
			for b.Loop() {
				dst.Reset()
				if c.aTrans {
					dst.Mul(c.a.T(), c.b)
				} else {
					dst.Mul(c.a, c.b)
				}
			}
		})
		b.Run(c.name+"/tiles", func(b *testing.B) {
			var dst mat.Dense
			p := denseProduct{threads: 1}
			for b.Loop() {
				dst.Reset()
				p.mul(&dst, c.a, c.aTrans, c.b)
			}
		})
	}
}
