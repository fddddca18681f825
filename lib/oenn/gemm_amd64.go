//go:build !noasm

package oenn

import "github.com/oe-lab/oe/lib/internal/cpufeature"

// bestKernel is the widest micro-kernel the CPU supports.
func bestKernel() microKernel {
	switch {
	case cpufeature.AVX512:
		return microKernel{mr: 12, nr: 32, run: runAVX512}
	case cpufeature.AVX2FMA:
		return microKernel{mr: 6, nr: 16, run: runAVX2}
	}
	return microGo(6, 16)
}

// The assembly trusts its arguments: these wrappers check that the panels
// and the tile are long enough.

func runAVX2(k int, a, b, c []float32, ldc int, src []float32, lds int) {
	_, _, _, _ = a[6*k-1], b[16*k-1], c[5*ldc+15], src[5*lds+15]
	microAVX2(k, &a[0], &b[0], &c[0], ldc, &src[0], lds)
}

func runAVX512(k int, a, b, c []float32, ldc int, src []float32, lds int) {
	_, _, _, _ = a[12*k-1], b[32*k-1], c[11*ldc+31], src[11*lds+31]
	microAVX512(k, &a[0], &b[0], &c[0], ldc, &src[0], lds)
}

// Implemented in gemm_amd64.s.

//go:noescape
func microAVX2(k int, a, b, c *float32, ldc int, src *float32, lds int)

//go:noescape
func microAVX512(k int, a, b, c *float32, ldc int, src *float32, lds int)
