//go:build !amd64

package tripletloss

// Without an assembly kernel for this architecture, the portable loops run.

func (k *kernel) blockDists(_ []float32, idx []int32, cnt int, out []float32) {
	k.blockDistsGo(idx, cnt, out)
}

func (k *kernel) blockScatter(g []float32, idx []int32, coef []float32) {
	k.blockScatterGo(g, idx, coef)
}
