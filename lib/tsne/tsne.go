package tsne

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/parallel"
)

// Options configures Embed. The zero value selects the defaults.
type Options struct {
	// Perplexity is the effective number of neighbours of each point's
	// Gaussian affinity distribution (default 30). Each point uses its
	// ⌊3·Perplexity⌋ nearest neighbours, so n must exceed 3·Perplexity.
	Perplexity float64
	// Theta is the Barnes–Hut accuracy threshold (default 0.5); smaller is
	// more accurate and slower. Use Exact for the exact gradient.
	Theta float64
	// Iterations is the number of gradient steps (default 1000), the first
	// 250 of them with early exaggeration.
	Iterations int
	// LearningRate is the step size (default max(n/48, 50), see the package
	// documentation).
	LearningRate float64
	// Exact computes affinities over all other points and the O(n²) gradient
	// instead of the neighbour graph and the quadtree. It is meant for small n
	// and refused above MaxExactPoints.
	Exact bool
	// Seed selects the random initial embedding.
	Seed uint64
	// Threads is the number of goroutines (0: GOMAXPROCS). It does not change
	// the result.
	Threads int
}

// Defaults and constants of the optimisation, those of the reference
// implementation.
const (
	DefaultPerplexity = 30
	DefaultTheta      = 0.5
	DefaultIterations = 1000

	// MaxExactPoints bounds n in exact mode, whose dense affinities take
	// 12·n² bytes.
	MaxExactPoints = 10000

	earlyExaggeration = 12
	exaggerationIters = 250 // also the iteration at which momentum switches
	initialMomentum   = 0.5
	finalMomentum     = 0.8
	gainStep          = 0.2
	gainDecay         = 0.8
	minGain           = 0.01
	initialScale      = 1e-4 // standard deviation of the random start
)

// Embed returns an n×2 t-SNE embedding of the rows of x. It fails on invalid
// options, on NaN or infinite input, when n is too small for the perplexity,
// and when the optimisation diverges.
func Embed(x *mat.Dense, opt Options) (*mat.Dense, error) {
	if err := opt.resolve(x); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	k := int(3 * opt.Perplexity)
	if opt.Exact {
		k = n - 1
	}
	p := jointAffinities(x.RawMatrix(), k, opt.Perplexity, opt.Threads)
	g := newGradientState(p, opt.Theta, opt.Exact, opt.Threads)

	rng := rand.New(rand.NewPCG(opt.Seed, 0x75e1))
	y := make([]float64, 2*n)
	for t := range y {
		y[t] = initialScale * rng.NormFloat64()
	}
	grad := make([]float64, 2*n)
	update := make([]float64, 2*n)
	gains := make([]float64, 2*n)
	for t := range gains {
		gains[t] = 1
	}
	for it := 0; it < opt.Iterations; it++ {
		exaggeration, momentum := 1.0, finalMomentum
		if it < exaggerationIters {
			exaggeration, momentum = earlyExaggeration, initialMomentum
		}
		g.gradient(y, exaggeration, grad)
		for t, d := range grad {
			if math.IsNaN(d) || math.IsInf(d, 0) {
				return nil, fmt.Errorf("tsne: diverged at iteration %d: gradient of point %d is %v", it, t/2, d)
			}
			// Delta-bar-delta: a gradient whose sign differs from the last
			// step's means the new step goes the same way, so grow the gain;
			// otherwise the coordinate overshot, so shrink it.
			if sign(d) != sign(update[t]) {
				gains[t] += gainStep
			} else {
				gains[t] *= gainDecay
			}
			gains[t] = max(gains[t], minGain)
			update[t] = momentum*update[t] - opt.LearningRate*gains[t]*d
			y[t] += update[t]
		}
		recentre(y)
	}
	return mat.NewDense(n, 2, y), nil
}

// sign is −1, 0 or +1; zero counts as its own sign, so the first step (from a
// zero update) grows every nonzero coordinate's gain, as in the reference code.
func sign(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// recentre subtracts the mean from the 2-D points y. The objective is
// translation invariant; centring keeps the coordinates from drifting.
func recentre(y []float64) {
	n := len(y) / 2
	var mx, my float64
	for i := 0; i < n; i++ {
		mx += y[2*i]
		my += y[2*i+1]
	}
	mx /= float64(n)
	my /= float64(n)
	for i := 0; i < n; i++ {
		y[2*i] -= mx
		y[2*i+1] -= my
	}
}

// resolve fills in defaults and checks the options against x.
func (opt *Options) resolve(x *mat.Dense) error {
	if x == nil || x.IsEmpty() {
		return fmt.Errorf("tsne: no input points")
	}
	n, d := x.Dims()
	if n > math.MaxInt32 {
		return fmt.Errorf("tsne: %d points exceed the int32 index range", n)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if v := x.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("tsne: input x[%d,%d] is %v", i, j, v)
			}
		}
	}
	if opt.Perplexity == 0 {
		opt.Perplexity = DefaultPerplexity
	}
	if !(opt.Perplexity >= 1) || math.IsInf(opt.Perplexity, 0) {
		return fmt.Errorf("tsne: perplexity %v must be a finite number ≥ 1", opt.Perplexity)
	}
	if float64(n-1) < 3*opt.Perplexity {
		return fmt.Errorf("tsne: perplexity %v needs more than 3·%v = %v points, have %d",
			opt.Perplexity, opt.Perplexity, 3*opt.Perplexity, n)
	}
	if opt.Theta == 0 {
		opt.Theta = DefaultTheta
	}
	if !(opt.Theta > 0) || math.IsInf(opt.Theta, 0) {
		return fmt.Errorf("tsne: Barnes–Hut theta %v must be a finite number > 0", opt.Theta)
	}
	if opt.Iterations == 0 {
		opt.Iterations = DefaultIterations
	}
	if opt.Iterations < 0 {
		return fmt.Errorf("tsne: negative iteration count %d", opt.Iterations)
	}
	if opt.LearningRate == 0 {
		opt.LearningRate = max(float64(n)/earlyExaggeration/4, 50)
	}
	if !(opt.LearningRate > 0) || math.IsInf(opt.LearningRate, 0) {
		return fmt.Errorf("tsne: learning rate %v must be a finite number > 0", opt.LearningRate)
	}
	if opt.Exact && n > MaxExactPoints {
		return fmt.Errorf("tsne: exact mode takes at most %d points, have %d; use the Barnes–Hut default", MaxExactPoints, n)
	}
	opt.Threads = parallel.Workers(opt.Threads)
	return nil
}
