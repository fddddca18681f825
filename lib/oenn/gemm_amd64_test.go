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
		newGemm(kern).mulAdd(m, n, k, a, b, c, n)
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
