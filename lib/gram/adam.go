package gram

import (
	"math"

	"github.com/oe-lab/oe/lib/internal/parallel"
)

// amsgrad is Adam with the AMSGrad maximum, PyTorch's update rule, over
// float64 parameters. lib/optim's Adam works on float32 and applies the
// update to the parameters; the Gram methods need the update itself in
// float64, as the sparse part of the matrix to project (the parameters, K,
// are never stored densely), hence this small private copy.
type amsgrad struct {
	lr, beta1, beta2, eps float64
	m, v, vmax            []float64
	t                     int
}

func newAMSGrad(size int, lr float64) *amsgrad {
	return &amsgrad{lr: lr, beta1: 0.9, beta2: 0.999, eps: 1e-8,
		m: make([]float64, size), v: make([]float64, size), vmax: make([]float64, size)}
}

// step advances the moments with gradient g and writes into delta the amount
// lr/(1−β₁ᵗ) · m / (√v̂/√(1−β₂ᵗ) + ε) to subtract from every parameter.
func (a *amsgrad) step(g, delta []float64, threads int) {
	a.t++
	stepSize := a.lr / (1 - math.Pow(a.beta1, float64(a.t)))
	bc2 := math.Sqrt(1 - math.Pow(a.beta2, float64(a.t)))
	b1, b2, eps := a.beta1, a.beta2, a.eps
	const perChunk = 1 << 16
	parallel.ForChunks(threads, len(g), perChunk, func(_, from, to int) {
		for e := from; e < to; e++ {
			ge := g[e]
			me := b1*a.m[e] + (1-b1)*ge
			ve := b2*a.v[e] + (1-b2)*ge*ge
			vm := math.Max(a.vmax[e], ve)
			a.m[e], a.v[e], a.vmax[e] = me, ve, vm
			delta[e] = stepSize * me / (math.Sqrt(vm)/bc2 + eps)
		}
	})
}
