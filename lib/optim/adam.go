package optim

import (
	"fmt"
	"math"

	"github.com/oe-lab/oe/lib/internal/asm"
	"github.com/oe-lab/oe/lib/internal/param"
)

// Float is the element type of Adam's parameters: float32 for the
// embeddings and networks (lib/tripletloss, lib/oenn, lib/landmark), float64
// for the Gram methods (lib/gram), whose parameters are a sparse update of a
// matrix never stored densely.
type Float interface{ ~float32 | ~float64 }

// Adam is the Adam optimiser (Kingma & Ba) over a parameter vector of F,
// with PyTorch's update rule:
//
//	m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,  v̂ ← max(v̂, v) (AMSGrad)
//	x ← x − (lr/(1−β₁ᵗ)) · m / (√v̂/√(1−β₂ᵗ) + ε)
//
// computed in F, each product rounded before it is added (no fused
// multiply-add, on any architecture), so that a port (lib/cuda's adam_step)
// can reproduce it bit for bit. A step may be applied in pieces: NextStep
// once, then UpdateRange (or DeltaRange) on disjoint ranges of the
// parameters, possibly from several goroutines at once.
type Adam[F Float] struct {
	// LR is the learning rate.
	LR float64
	// Beta1 and Beta2 are the decay rates of the moment estimates.
	Beta1, Beta2 float64
	// Eps is added to the denominator for numerical stability.
	Eps float64
	// AMSGrad divides by the running maximum of the second moment instead of
	// the second moment itself.
	AMSGrad bool

	m, v, vmax []F
	t          int
	k          Constants[F]
}

// NewAdam returns an Adam optimiser for size parameters with PyTorch's
// defaults (β₁ = 0.9, β₂ = 0.999, ε = 1e-8) and AMSGrad on, as the paper used.
func NewAdam[F Float](size int, lr float64) (*Adam[F], error) {
	if size < 0 {
		return nil, fmt.Errorf("optim: negative parameter count %d", size)
	}
	a := &Adam[F]{LR: lr, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, AMSGrad: true,
		m: make([]F, size), v: make([]F, size)}
	if err := a.check(); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *Adam[F]) check() error {
	if err := param.Positive("optim", "learning rate", a.LR); err != nil {
		return err
	}
	switch {
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
func (a *Adam[F]) Size() int { return len(a.m) }

// Steps returns the number of steps begun so far.
func (a *Adam[F]) Steps() int { return a.t }

// AdamState is what an Adam optimiser has accumulated: its step count
// and moment estimates (VMax nil until AMSGrad's first step). A checkpoint
// keeps it so that a resumed fit steps exactly as an uninterrupted one.
type AdamState[F Float] struct {
	Steps int
	M, V  []F
	VMax  []F
}

// State returns the optimiser's state. Its slices are the optimiser's own:
// encode them before the next step.
func (a *Adam[F]) State() AdamState[F] {
	return AdamState[F]{Steps: a.t, M: a.m, V: a.v, VMax: a.vmax}
}

// SetState copies s into the optimiser, whose next step is then step
// s.Steps+1. It returns an error, and leaves the optimiser as it was, when
// the moments' lengths are not the optimiser's size.
func (a *Adam[F]) SetState(s AdamState[F]) error {
	n := len(a.m)
	if s.Steps < 0 || len(s.M) != n || len(s.V) != n || (s.VMax != nil && len(s.VMax) != n) {
		return fmt.Errorf("optim: a state of %d steps and moments of %d, %d and %d values for an optimiser of %d parameters",
			s.Steps, len(s.M), len(s.V), len(s.VMax), n)
	}
	a.t = s.Steps
	copy(a.m, s.M)
	copy(a.v, s.V)
	a.vmax = nil
	if s.VMax != nil {
		a.vmax = append([]F(nil), s.VMax...)
	}
	return nil
}

// NextStep begins a new optimisation step. It returns an error if a
// hyper-parameter was set out of range.
func (a *Adam[F]) NextStep() error {
	if err := a.check(); err != nil {
		return err
	}
	if a.AMSGrad && a.vmax == nil {
		a.vmax = make([]F, len(a.m))
	}
	a.t++
	bc1 := 1 - math.Pow(a.Beta1, float64(a.t))
	bc2 := 1 - math.Pow(a.Beta2, float64(a.t))
	a.k = Constants[F]{StepSize: F(a.LR / bc1), BC2Sqrt: F(math.Sqrt(bc2)),
		Beta1: F(a.Beta1), Beta2: F(a.Beta2), Eps: F(a.Eps), AMSGrad: a.AMSGrad}
	return nil
}

// Constants are the constants of one step, in the update
//
//	x ← x − StepSize · m / (√v̂ / BC2Sqrt + Eps)
//
// with the moments decaying by Beta1 and Beta2.
type Constants[F Float] struct {
	StepSize, BC2Sqrt, Beta1, Beta2, Eps F
	AMSGrad                              bool
}

// Constants returns the constants of the step begun by the last NextStep.
// A port of UpdateRange (lib/cuda's Adam kernel) takes them from here, so
// that it rounds exactly as UpdateRange does and needs no moments on the
// host: an Adam of size 0 then just keeps the step count and
// hyper-parameters.
func (a *Adam[F]) Constants() Constants[F] { return a.k }

// UpdateRange applies the current step to x, the parameters off..off+len(x)-1,
// with their gradient g. Calls on disjoint ranges may run concurrently. It
// panics if g and x differ in length or no step was begun.
func (a *Adam[F]) UpdateRange(x, g []F, off int) { a.update(x, g, off, true) }

// DeltaRange is UpdateRange for parameters kept elsewhere: it advances the
// moments of parameters off..off+len(delta)-1 with their gradient g and sets
// delta to the amounts UpdateRange would subtract from them.
func (a *Adam[F]) DeltaRange(delta, g []F, off int) { a.update(delta, g, off, false) }

// update is UpdateRange (apply) or DeltaRange: lib/internal/asm's Adam, on
// the range's moments.
func (a *Adam[F]) update(x, g []F, off int, apply bool) {
	if len(g) != len(x) {
		panic(fmt.Sprintf("optim: %d parameters but %d gradient entries", len(x), len(g)))
	}
	if a.t == 0 {
		panic("optim: update before NextStep")
	}
	n := len(x)
	var vmax []F
	if a.AMSGrad {
		vmax = a.vmax[off : off+n : off+n]
	}
	k := a.k
	asm.Adam(asm.AdamConstants[F]{StepSize: k.StepSize, BC2Sqrt: k.BC2Sqrt, Beta1: k.Beta1, Beta2: k.Beta2, Eps: k.Eps},
		x, g, a.m[off:off+n:off+n], a.v[off:off+n:off+n], vmax, apply)
}

// Step is NextStep followed by UpdateRange over all parameters.
func (a *Adam[F]) Step(x, g []F) error {
	if len(x) != len(a.m) {
		return fmt.Errorf("optim: Adam sized for %d parameters, got %d", len(a.m), len(x))
	}
	if err := a.NextStep(); err != nil {
		return err
	}
	a.UpdateRange(x, g, 0)
	return nil
}
