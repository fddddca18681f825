//go:build !amd64 || noasm

package tripletloss

// Without assembly (another architecture, or the noasm build tag) the Go
// twins run.

func (k *kernel) blockDists(idx []int32, cnt int, out []float32) { k.blockDistsGo(idx, cnt, out) }

func (k *kernel) blockScatter(g []float32, idx []int32, coef []float32) {
	k.blockScatterGo(g, idx, coef)
}

func (k *kernel) scatterHeads(terms []headTerm) { k.scatterHeadsGo(terms) }

func (k *kernel) scatterTails(terms []tailTerm) { k.scatterTailsGo(terms) }
