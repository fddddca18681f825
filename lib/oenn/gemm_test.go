package oenn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// kernelsUnderTest are the micro-kernels this machine can run: the
// portable one always, and the one bestKernel picks.
func kernelsUnderTest() map[string]microKernel {
	best := bestKernel()
	return map[string]microKernel{
		"go":       microGo(6, 16),
		"go-12x32": microGo(12, 32),
		fmt.Sprintf("best-%dx%d", best.mr, best.nr): best,
	}
}

// TestGemm checks C += op(A)·op(B) against a float64 triple loop for every
// kernel, both transposes, and sizes that leave partial tiles and span
// several kc and mc blocks.
func TestGemm(t *testing.T) {
	sizes := []struct{ m, n, k int }{
		{1, 1, 1}, {5, 7, 3}, {6, 16, 1}, {12, 32, 9}, {13, 33, 257},
		{97, 50, 300}, {200, 17, 12}, {40, 648, 30},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for name, kern := range kernelsUnderTest() {
		g := newGemm(kern, 0)
		for _, sz := range sizes {
			for _, ta := range []bool{false, true} {
				for _, tb := range []bool{false, true} {
					a := randomMatrix(rng, sz.m, sz.k, ta)
					b := randomMatrix(rng, sz.k, sz.n, tb)
					ldc := sz.n + 3 // a padded row: the product must not touch the padding
					c := make([]float32, sz.m*ldc)
					for i := range c {
						c[i] = float32(rng.NormFloat64())
					}
					want := make([]float64, len(c))
					for i := 0; i < sz.m; i++ {
						for j := 0; j < ldc; j++ {
							want[i*ldc+j] = float64(c[i*ldc+j])
							if j >= sz.n {
								continue
							}
							for p := 0; p < sz.k; p++ {
								want[i*ldc+j] += float64(a.at(i, p)) * float64(b.at(p, j))
							}
						}
					}
					g.mulAdd(sz.m, sz.n, sz.k, a, b, c, ldc)
					tol := 1e-5 * float64(sz.k)
					for i, w := range want {
						if math.Abs(float64(c[i])-w) > tol*(1+math.Abs(w)) {
							t.Fatalf("%s m=%d n=%d k=%d transA=%v transB=%v: C[%d,%d] = %v, want %v",
								name, sz.m, sz.n, sz.k, ta, tb, i/ldc, i%ldc, c[i], w)
						}
					}
				}
			}
		}
	}
}

// TestGemmWorkersAgree checks that the result is bit-identical with one and
// with several workers.
func TestGemmWorkersAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m, n, k := 300, 70, 600
	a, b := randomMatrix(rng, m, k, false), randomMatrix(rng, k, n, true)
	run := func(threads int) []float32 {
		c := make([]float32, m*n)
		g := newGemm(bestKernel(), threads)
		if len(g.packA) != threads {
			t.Fatalf("%d threads: %d workers", threads, len(g.packA))
		}
		g.mulAdd(m, n, k, a, b, c, n)
		return c
	}
	one, four := run(1), run(4)
	for i := range one {
		if math.Float32bits(one[i]) != math.Float32bits(four[i]) {
			t.Fatalf("C[%d] = %v with 1 worker, %v with 4", i, one[i], four[i])
		}
	}
}

// at returns element (i, j) of m.
func (m matrix) at(i, j int) float32 {
	if m.trans {
		return m.data[j*m.stride+i]
	}
	return m.data[i*m.stride+j]
}

// randomMatrix returns an r×c operand with normal entries, stored
// transposed when trans is set.
func randomMatrix(rng *rand.Rand, r, c int, trans bool) matrix {
	data := make([]float32, r*c)
	for i := range data {
		data[i] = float32(rng.NormFloat64())
	}
	if trans {
		return matrix{data: data, stride: r, trans: true}
	}
	return matrix{data: data, stride: c}
}
