//go:build !noasm

package tripletloss

import "github.com/oe-lab/oe/lib/internal/cpufeature"

// useAVX2 selects the AVX2 loops of kernel_amd64.s; without AVX2 the Go
// twins run. Tests switch it off to compare the two.
var useAVX2 = cpufeature.AVX2FMA

// The assembly trusts the row indices to lie in [0, n): Fit validates
// every triplet set before training. The wrappers check the lengths.

// blockDists is blockDistsGo in assembly, which also prefetches the x rows
// of the triplet 8 further on in idx.
func (k *kernel) blockDists(idx []int32, cnt int, out []float32) {
	if !useAVX2 {
		k.blockDistsGo(idx, cnt, out)
		return
	}
	_, _ = idx[3*cnt-1], out[2*cnt-1]
	distsBlockAVX2(&k.x[0], &idx[0], cnt, k.stride, len(idx)/3, &out[0])
}

// blockScatter is blockScatterGo in assembly.
func (k *kernel) blockScatter(g []float32, idx []int32, coef []float32) {
	if !useAVX2 {
		k.blockScatterGo(g, idx, coef)
		return
	}
	cnt := len(idx) / 3
	_, _ = coef[2*cnt-1], g[len(k.x)-1]
	scatterBlockAVX2(&k.x[0], &g[0], &idx[0], cnt, k.stride, &coef[0])
}

// scatterHeads is scatterHeadsGo in assembly.
func (k *kernel) scatterHeads(terms []headTerm) {
	if !useAVX2 || len(terms) == 0 {
		k.scatterHeadsGo(terms)
		return
	}
	scatterHeadsAVX2(&k.x[0], &k.g[0], &terms[0], len(terms), k.stride)
}

// scatterTails is scatterTailsGo in assembly.
func (k *kernel) scatterTails(terms []tailTerm) {
	if !useAVX2 || len(terms) == 0 {
		k.scatterTailsGo(terms)
		return
	}
	scatterTailsAVX2(&k.x[0], &k.g[0], &terms[0], len(terms), k.stride)
}

// Implemented in kernel_amd64.s.

//go:noescape
func distsBlockAVX2(x *float32, idx *int32, cnt, stride, ahead int, out *float32)

//go:noescape
func scatterBlockAVX2(x, grad *float32, idx *int32, cnt, stride int, coef *float32)

//go:noescape
func scatterHeadsAVX2(x, grad *float32, terms *headTerm, cnt, stride int)

//go:noescape
func scatterTailsAVX2(x, grad *float32, terms *tailTerm, cnt, stride int)
