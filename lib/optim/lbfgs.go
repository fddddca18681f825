package optim

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"

	"github.com/oe-lab/oe/lib/internal/numeric"
)

// LBFGSStop says why MinimizeLBFGS returned.
type LBFGSStop int

const (
	// LBFGSStopped: the iterate callback asked to stop.
	LBFGSStopped LBFGSStop = iota
	// LBFGSMaxIterations: the iteration cap was reached.
	LBFGSMaxIterations
	// LBFGSNoProgress: the line search found no step that lowers the
	// objective (within the precision of its evaluation), or the gradient
	// vanished: x is a (numerical) stationary point.
	LBFGSNoProgress
)

// ErrNotFinite is wrapped by the error of an L-BFGS run whose objective or
// gradient became NaN or infinite.
var ErrNotFinite = errors.New("objective or gradient not finite")

// LBFGS minimises a smooth function by limited-memory BFGS with a
// More–Thuente line search (gonum/optimize's defaults), on the full
// objective at every evaluation.
type LBFGS struct {
	// FuncGrad returns f(x) and sets grad to ∇f(x). It is called once per
	// point the line search tries: MinimizeLBFGS asks for value and
	// gradient together.
	FuncGrad func(grad, x []float64) float64
	// MaxIterations caps the iterations (≥ 1).
	MaxIterations int
	// Iterate, when set, is called after every iteration (1-based) with the
	// new iterate and its objective value; returning true stops the
	// minimisation there, an error aborts it with that error.
	Iterate func(iter int, x []float64, f float64) (stop bool, err error)
}

// Minimize runs L-BFGS from x, which it overwrites with the last iterate
// (the point of lowest objective found), and returns the number of
// iterations and why it stopped. A non-finite objective or gradient is an
// error wrapping ErrNotFinite.
func (l LBFGS) Minimize(x []float64) (iterations int, stop LBFGSStop, err error) {
	if l.FuncGrad == nil {
		return 0, 0, errors.New("optim: L-BFGS without an objective")
	}
	if l.MaxIterations < 1 {
		return 0, 0, fmt.Errorf("optim: L-BFGS with %d iterations", l.MaxIterations)
	}
	// gonum asks for the value and then the gradient at the same point; one
	// call of FuncGrad serves both.
	var at, grad []float64
	var cached float64 // f(at)
	eval := func(x []float64) {
		if at != nil && slices.Equal(at, x) {
			return
		}
		if grad == nil {
			grad = make([]float64, len(x))
		}
		f := l.FuncGrad(grad, x)
		at = append(at[:0], x...)
		cached = f
	}
	p := optimize.Problem{
		Func: func(x []float64) float64 { eval(x); return cached },
		Grad: func(g, x []float64) { eval(x); copy(g, grad) },
	}
	conv := &iterationHook{hook: l.Iterate}
	settings := &optimize.Settings{Converger: conv, MajorIterations: l.MaxIterations}
	res, err := optimize.Minimize(p, x, settings, &optimize.LBFGS{})
	if res != nil {
		copy(x, res.X)
		iterations = res.MajorIterations
	}
	lastFinite := !math.IsNaN(cached) && !math.IsInf(cached, 0) && numeric.AllFinite(grad)
	switch {
	case conv.err != nil:
		return iterations, 0, conv.err
	case conv.nonFinite || (err != nil && !lastFinite):
		return iterations, 0, fmt.Errorf("optim: L-BFGS: %w at iteration %d", ErrNotFinite, iterations+1)
	case conv.stopped:
		return iterations, LBFGSStopped, nil
	case errors.Is(err, optimize.ErrLinesearcherFailure), errors.Is(err, optimize.ErrNoProgress),
		errors.Is(err, optimize.ErrNonDescentDirection), errors.Is(err, optimize.ErrLinesearcherBound):
		// The line search cannot lower the objective further at the
		// precision it is evaluated with: a numerical minimum.
		return iterations, LBFGSNoProgress, nil
	case err != nil:
		return iterations, 0, fmt.Errorf("optim: L-BFGS: %w", err)
	case res.Status == optimize.IterationLimit:
		return iterations, LBFGSMaxIterations, nil
	case res.Status == optimize.GradientThreshold:
		return iterations, LBFGSNoProgress, nil
	}
	return iterations, 0, fmt.Errorf("optim: L-BFGS stopped with status %v", res.Status)
}

// iterationHook is the optimize.Converger that hands every iteration to
// LBFGS.Iterate and keeps what it said.
type iterationHook struct {
	hook      func(iter int, x []float64, f float64) (bool, error)
	iter      int
	stopped   bool
	nonFinite bool
	err       error
}

func (h *iterationHook) Init(int) {}

// Converged is called by gonum after every major iteration.
func (h *iterationHook) Converged(loc *optimize.Location) optimize.Status {
	h.iter++
	if math.IsNaN(loc.F) || math.IsInf(loc.F, 0) || !numeric.AllFinite(loc.Gradient) {
		h.nonFinite = true
		return optimize.Failure
	}
	if h.hook == nil {
		return optimize.NotTerminated
	}
	stop, err := h.hook(h.iter, loc.X, loc.F)
	switch {
	case err != nil:
		h.err = err
		return optimize.Failure
	case stop:
		h.stopped = true
		return optimize.Success
	}
	return optimize.NotTerminated
}
