package oenn

import (
	"math"

	"github.com/oe-lab/oe/lib/internal/parallel"
)

// amsgrad is Adam with the AMSGrad correction (Reddi et al.), as the
// authors' code runs it (torch.optim.Adam with amsgrad=True; see
// shared/paper/NOTES.md), on one flat float32 parameter vector. It is private
// because the network's parameters are float32 while lib/optim works on
// float64 matrices. The GPU trainer keeps the moments on the device and
// uses an amsgrad of size 0 for its step count and constants (next).
type amsgrad struct {
	lr, beta1, beta2, eps float64
	m, v, vmax            []float32
	t                     int
}

func newAMSGrad(size int, lr float64) *amsgrad {
	return &amsgrad{
		lr: lr, beta1: 0.9, beta2: 0.999, eps: 1e-8,
		m: make([]float32, size), v: make([]float32, size), vmax: make([]float32, size),
	}
}

// amsgradStep holds the float32 constants of one step, computed in float64
// on the host: the CPU's step and the GPU's kernel (lib/cuda's
// AMSGradStep) use the same ones.
type amsgradStep struct {
	stepSize, invSqrtBC2, beta1, beta2, eps float32
}

// next advances the step count and returns the new step's constants, with
// PyTorch's bias correction: stepSize = lr/(1−β₁ᵗ), invSqrtBC2 = 1/√(1−β₂ᵗ).
func (o *amsgrad) next() amsgradStep {
	o.t++
	return amsgradStep{
		stepSize:   float32(o.lr / (1 - math.Pow(o.beta1, float64(o.t)))),
		invSqrtBC2: float32(1 / math.Sqrt(1-math.Pow(o.beta2, float64(o.t)))),
		beta1:      float32(o.beta1),
		beta2:      float32(o.beta2),
		eps:        float32(o.eps),
	}
}

// step updates p in place from its gradient g:
// p -= stepSize · m / (√vmax · invSqrtBC2 + ε).
func (o *amsgrad) step(p, g []float32) {
	k := o.next()
	b1, b2 := k.beta1, k.beta2
	stepSize, invSqrtBC2, eps := k.stepSize, k.invSqrtBC2, k.eps
	// Every entry is updated independently, so the ranges can run on any
	// number of goroutines without changing the result.
	parallel.ForChunks(0, len(p), 1<<15, func(_, lo, hi int) {
		m, v, vmax := o.m[lo:hi], o.v[lo:hi], o.vmax[lo:hi]
		pr := p[lo:hi]
		for i, gi := range g[lo:hi] {
			m[i] = b1*m[i] + (1-b1)*gi
			v[i] = b2*v[i] + (1-b2)*gi*gi
			vmax[i] = max(vmax[i], v[i])
			denom := float32(math.Sqrt(float64(vmax[i])))*invSqrtBC2 + eps
			pr[i] -= stepSize * m[i] / denom
		}
	})
}
