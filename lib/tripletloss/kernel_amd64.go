package tripletloss

import "github.com/oe-lab/oe/lib/internal/cpufeature"

// useAVX2 selects the AVX2+FMA block loops of kernel_amd64.s; without them
// the portable loops run. Tests switch it off to compare the two.
var useAVX2 = cpufeature.AVX2FMA

// blockDists is blockDistsGo in assembly, which also prefetches the x and g
// rows of the triplet 8 further on in idx. The assembly trusts the indices
// to lie in [0, n): Fit validates every triplet set before training.
func (k *kernel) blockDists(g []float32, idx []int32, cnt int, out []float32) {
	if !useAVX2 {
		k.blockDistsGo(idx, cnt, out)
		return
	}
	_, _ = idx[3*cnt-1], out[2*cnt-1]
	distsBlockAVX2(&k.x[0], &g[0], &idx[0], cnt, k.stride, len(idx)/3, &out[0])
}

// blockScatter is blockScatterGo in assembly.
func (k *kernel) blockScatter(g []float32, idx []int32, coef []float32) {
	if !useAVX2 {
		k.blockScatterGo(g, idx, coef)
		return
	}
	cnt := len(idx) / 3
	_ = coef[2*cnt-1]
	scatterBlockAVX2(&k.x[0], &g[0], &idx[0], cnt, k.stride, &coef[0])
}

// Implemented in kernel_amd64.s.

//go:noescape
func distsBlockAVX2(x, grad *float32, idx *int32, cnt, stride, ahead int, out *float32)

//go:noescape
func scatterBlockAVX2(x, grad *float32, idx *int32, cnt, stride int, coef *float32)
