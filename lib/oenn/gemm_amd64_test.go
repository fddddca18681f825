//go:build !noasm

package oenn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/oe-lab/oe/lib/internal/cpufeature"
)

// TestAssemblyKernelsAgree checks that the AVX2 and AVX-512 micro-kernels,
// which both run one fused multiply-add per term in the same order, give
// bit-identical products, so a run's result does not depend on which of
// them the CPU selects.
func TestAssemblyKernelsAgree(t *testing.T) {
	if !cpufeature.AVX512 {
		t.Skip("this CPU has no AVX-512: only the AVX2 kernel can run")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	m, n, k := 131, 77, 530
	a, b := randomMatrix(rng, m, k, true), randomMatrix(rng, k, n, false)
	product := func(kern microKernel) []float32 {
		c := make([]float32, m*n)
		newGemm(kern, 0).mul(m, n, k, a, b, c, n)
		return c
	}
	avx2 := product(microKernel{mr: 6, nr: 16, run: runAVX2})
	avx512 := product(microKernel{mr: 12, nr: 32, run: runAVX512})
	for i := range avx2 {
		if math.Float32bits(avx2[i]) != math.Float32bits(avx512[i]) {
			t.Fatalf("C[%d]: AVX2 %v, AVX-512 %v", i, avx2[i], avx512[i])
		}
	}
}

// fma32 returns a·b + c rounded once to float32, as VFMADD231PS rounds it.
// a·b is exact in float64; the float64 sum is then rounded to odd (moved by
// one unit in the last place towards the exact sum when it is inexact and
// even), which makes the final rounding to float32 correct (53 ≥ 24 + 2
// bits: Boldo & Melquiond, "Emulation of FMA and correctly rounded sums:
// proved algorithms using rounding to odd", IEEE TC 57(4), 2008).
func fma32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	// The error of the sum, exactly (Knuth's TwoSum).
	bb := s - p
	e := (p - (s - bb)) + (float64(c) - bb)
	if e != 0 {
		if bits := math.Float64bits(s); bits&1 == 0 {
			if (e > 0) == (s > 0) {
				bits++
			} else {
				bits--
			}
			s = math.Float64frombits(bits)
		}
	}
	return float32(s)
}

// TestMicroKernelsExact holds each assembly micro-kernel bit for bit to its
// definition: per tile entry, s = fma(a, b, s) over the inner dimension in
// order from s = 0, then C += s, with fma32 the exact emulation of a fused
// float32 multiply-add; or, given a row of zeros as the tile it adds to,
// C = 0 + s. Guard values around the panels and the tile catch
// reads or writes out of bounds. (microGo, the portable kernel, rounds each
// product instead: see doc.go.)
func TestMicroKernelsExact(t *testing.T) {
	kernels := map[string]microKernel{}
	if cpufeature.AVX2FMA {
		kernels["AVX2"] = microKernel{mr: 6, nr: 16, run: runAVX2}
	}
	if cpufeature.AVX512 {
		kernels["AVX-512"] = microKernel{mr: 12, nr: 32, run: runAVX512}
	}
	if len(kernels) == 0 {
		t.Skip("this CPU has no AVX2: only the portable micro-kernel runs")
	}
	const gap = 16
	guard := float32(-7.5e33)
	guarded := func(v []float32) (whole, inner []float32) {
		whole = make([]float32, len(v)+2*gap)
		for e := range whole {
			whole[e] = guard
		}
		copy(whole[gap:], v)
		return whole, whole[gap : gap+len(v)]
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for name, kern := range kernels {
		for _, k := range []int{1, 7, 256} {
			a, b := make([]float32, kern.mr*k), make([]float32, kern.nr*k)
			for i := range a {
				a[i] = float32(rng.NormFloat64())
			}
			for i := range b {
				b[i] = float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(40)-20)))
			}
			ldc := kern.nr + 3
			// The tile is added to C itself, or set to zeros plus the
			// product (src a row of zeros, lds = 0).
			for _, toZeros := range []bool{false, true} {
				c := make([]float32, kern.mr*ldc)
				for i := range c {
					c[i] = float32(rng.NormFloat64())
				}
				zeros := make([]float32, kern.nr)
				want := append([]float32(nil), c...)
				for i := 0; i < kern.mr; i++ {
					for j := 0; j < kern.nr; j++ {
						var s float32
						for p := 0; p < k; p++ {
							s = fma32(a[p*kern.mr+i], b[p*kern.nr+j], s)
						}
						if toZeros {
							want[i*ldc+j] = 0 + s
						} else {
							want[i*ldc+j] += s
						}
					}
				}
				aw, ag := guarded(a)
				bw, bg := guarded(b)
				cw, cg := guarded(c)
				zw, zg := guarded(zeros)
				src, lds := cg, ldc
				if toZeros {
					src, lds = zg, 0
				}
				kern.run(k, ag, bg, cg, ldc, src, lds)
				for e := range want {
					if math.Float32bits(cg[e]) != math.Float32bits(want[e]) {
						t.Fatalf("%s k=%d zeros=%v: C[%d] = %v, exact FMA sum %v", name, k, toZeros, e, cg[e], want[e])
					}
				}
				for _, w := range [][]float32{aw, bw, cw, zw} {
					for e := range gap {
						if w[e] != guard || w[len(w)-1-e] != guard {
							t.Fatalf("%s k=%d zeros=%v: a guard value changed", name, k, toZeros)
						}
					}
				}
			}
		}
	}
}
