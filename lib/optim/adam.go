package optim

import (
	"fmt"
	"math"
)

// Adam is the Adam optimiser (Kingma & Ba) over a float32 parameter vector,
// with PyTorch's update rule:
//
//	m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,  v̂ ← max(v̂, v) (AMSGrad)
//	x ← x − (lr/(1−β₁ᵗ)) · m / (√v̂/√(1−β₂ᵗ) + ε)
//
// A step may be applied in pieces: NextStep once, then UpdateRange on
// disjoint ranges of the parameters, possibly from several goroutines at once.
type Adam struct {
	// LR is the learning rate.
	LR float64
	// Beta1 and Beta2 are the decay rates of the moment estimates.
	Beta1, Beta2 float64
	// Eps is added to the denominator for numerical stability.
	Eps float64
	// AMSGrad divides by the running maximum of the second moment instead of
	// the second moment itself.
	AMSGrad bool

	m, v, vmax []float32
	t          int
	// Per-step constants set by NextStep.
	stepSize, bc2Sqrt, b1, b2, eps float32
}

// NewAdam returns an Adam optimiser for size parameters with PyTorch's
// defaults (β₁ = 0.9, β₂ = 0.999, ε = 1e-8) and AMSGrad on, as the paper used.
func NewAdam(size int, lr float64) (*Adam, error) {
	if size < 0 {
		return nil, fmt.Errorf("optim: negative parameter count %d", size)
	}
	a := &Adam{LR: lr, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, AMSGrad: true,
		m: make([]float32, size), v: make([]float32, size)}
	if err := a.check(); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *Adam) check() error {
	switch {
	case math.IsNaN(a.LR) || math.IsInf(a.LR, 0) || a.LR <= 0:
		return fmt.Errorf("optim: learning rate must be finite and > 0, got %v", a.LR)
	case !(a.Beta1 >= 0 && a.Beta1 < 1):
		return fmt.Errorf("optim: β₁ must be in [0, 1), got %v", a.Beta1)
	case !(a.Beta2 >= 0 && a.Beta2 < 1):
		return fmt.Errorf("optim: β₂ must be in [0, 1), got %v", a.Beta2)
	case !(a.Eps >= 0) || math.IsInf(a.Eps, 0):
		return fmt.Errorf("optim: ε must be finite and ≥ 0, got %v", a.Eps)
	}
	return nil
}

// Size returns the number of parameters.
func (a *Adam) Size() int { return len(a.m) }

// Steps returns the number of steps begun so far.
func (a *Adam) Steps() int { return a.t }

// NextStep begins a new optimisation step. It returns an error if a
// hyper-parameter was set out of range.
func (a *Adam) NextStep() error {
	if err := a.check(); err != nil {
		return err
	}
	if a.AMSGrad && a.vmax == nil {
		a.vmax = make([]float32, len(a.m))
	}
	a.t++
	bc1 := 1 - math.Pow(a.Beta1, float64(a.t))
	bc2 := 1 - math.Pow(a.Beta2, float64(a.t))
	a.stepSize = float32(a.LR / bc1)
	a.bc2Sqrt = float32(math.Sqrt(bc2))
	a.b1, a.b2, a.eps = float32(a.Beta1), float32(a.Beta2), float32(a.Eps)
	return nil
}

// Constants are the float32 constants of one step, in the update
//
//	x ← x − StepSize · m / (√v̂ / BC2Sqrt + Eps)
//
// with the moments decaying by Beta1 and Beta2.
type Constants struct {
	StepSize, BC2Sqrt, Beta1, Beta2, Eps float32
	AMSGrad                              bool
}

// Constants returns the constants of the step begun by the last NextStep.
// A port of UpdateRange (lib/cuda's Adam kernel) takes them from here, so
// that it rounds exactly as UpdateRange does and needs no moments on the
// host: an Adam of size 0 then just keeps the step count and
// hyper-parameters.
func (a *Adam) Constants() Constants {
	return Constants{StepSize: a.stepSize, BC2Sqrt: a.bc2Sqrt, Beta1: a.b1, Beta2: a.b2, Eps: a.eps, AMSGrad: a.AMSGrad}
}

// UpdateRange applies the current step to x, the parameters off..off+len(x)-1,
// with their gradient g. Calls on disjoint ranges may run concurrently.
func (a *Adam) UpdateRange(x, g []float32, off int) {
	if len(g) != len(x) {
		panic(fmt.Sprintf("optim: %d parameters but %d gradient entries", len(x), len(g)))
	}
	if a.t == 0 {
		panic("optim: UpdateRange before NextStep")
	}
	m := a.m[off : off+len(x) : off+len(x)]
	v := a.v[off : off+len(x) : off+len(x)]
	b1, b2, eps, step, bc2 := a.b1, a.b2, a.eps, a.stepSize, a.bc2Sqrt
	c1, c2 := 1-b1, 1-b2
	if a.AMSGrad {
		vmax := a.vmax[off : off+len(x) : off+len(x)]
		for e, ge := range g[:len(x)] {
			me := b1*m[e] + c1*ge
			ve := b2*v[e] + c2*ge*ge
			m[e], v[e] = me, ve
			vm := max(vmax[e], ve)
			vmax[e] = vm
			x[e] -= step * me / (sqrt32(vm)/bc2 + eps)
		}
		return
	}
	for e, ge := range g[:len(x)] {
		me := b1*m[e] + c1*ge
		ve := b2*v[e] + c2*ge*ge
		m[e], v[e] = me, ve
		x[e] -= step * me / (sqrt32(ve)/bc2 + eps)
	}
}

// Step is NextStep followed by UpdateRange over all parameters.
func (a *Adam) Step(x, g []float32) error {
	if len(x) != len(a.m) {
		return fmt.Errorf("optim: Adam sized for %d parameters, got %d", len(a.m), len(x))
	}
	if err := a.NextStep(); err != nil {
		return err
	}
	a.UpdateRange(x, g, 0)
	return nil
}

func sqrt32(v float32) float32 { return float32(math.Sqrt(float64(v))) }
