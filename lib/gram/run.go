package gram

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/internal/parallel"
	"github.com/oe-lab/oe/lib/triplets"
)

// DefaultMaxEpochs caps a run of GNMDS, CKL or FORTE whose stopping rule has
// not fired: the authors' nb_epochs for these methods.
const DefaultMaxEpochs = 500

// Projection accuracy: the eigensolver's relative residual tolerance and the
// Krylov depth used for every projection of a run.
const (
	projectionTol   = 1e-6
	projectionDepth = 5
)

// run is the state a Fit shares between its epochs: the triplets and their
// pattern, the current Gram matrix as a factor K = XXᵀ, the warm start of the
// eigensolver and the bookkeeping of the stopping rule.
type run struct {
	method  string
	obj     objective
	ctx     context.Context
	s       *triplets.Set
	n, d, m int
	opt     embed.Options
	threads int
	pat     *pattern
	x       *mat.Dense // current factor, n×d
	warm    *mat.Dense // eigensolver warm start for the current K
	eigOpt  EigenOptions
	eig     eigenWork // the eigensolver's workspace, kept between projections
	adjVal  []float64 // the projection operator's edge values, kept likewise
	coef    []float64 // the triplets' coefficients, edge by edge (pattern.coefAt)
	// FORTE's line search evaluates its candidates' objectives with their
	// coefficients into candCoef; when it accepts one, the two swap, and
	// coefLoss holds the objective there, so that the next gradient, at the
	// accepted K, needs only the gather (coefAtX).
	candCoef []float64
	coefLoss float64
	coefAtX  bool
	subset   []int32 // training triplets of the stopping rule's checks
	tracker  *embed.Tracker
	start    time.Time
	res      *embed.Result
	// Projections and products count the eigensolver's work (for tests and
	// cost reports).
	projections, products int
}

// newRun validates the problem, checks memory and builds the pattern and the
// initial K = 0.1·X₀X₀ᵀ, X₀ uniform in [0,1) (gaussian when normalInit), as in
// the authors' code.
func newRun(ctx context.Context, method string, obj objective, p embed.Problem, opt embed.Options, normalInit bool) (*run, error) {
	if err := opt.RequireCPU(method); err != nil {
		return nil, err
	}
	if err := p.Check(true); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	n, d, m := p.Items(), p.Dim, p.Train.Len()
	if d > n {
		return nil, fmt.Errorf("%s: embedding dimension %d exceeds the %d items", method, d, n)
	}
	if opt.MaxEpochs < 0 {
		return nil, fmt.Errorf("%s: MaxEpochs must be ≥ 0, got %d", method, opt.MaxEpochs)
	}
	eigOpt := EigenOptions{Tol: projectionTol, Depth: projectionDepth, Seed: opt.Seed, Threads: opt.Threads}.withDefaults(d)
	if err := checkMemory(method, n, m, d, d+eigOpt.Oversample, eigOpt.Depth); err != nil {
		return nil, err
	}
	r := &run{method: method, obj: obj, ctx: ctx, s: p.Train, n: n, d: d, m: m, opt: opt,
		threads: parallel.Workers(opt.Threads), eigOpt: eigOpt, start: time.Now(), res: &embed.Result{}}
	var err error
	if r.pat, err = newPattern(p.Train, n, r.threads); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x243f6a8885a308d3))
	r.x = mat.NewDense(n, d, nil)
	scale := math.Sqrt(0.1)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			v := rng.Float64()
			if normalInit {
				v = rng.NormFloat64()
			}
			r.x.Set(i, j, scale*v)
		}
	}
	// K₀'s eigenvectors span X₀'s columns: the first projection's warm start.
	r.warm = mat.DenseCopyOf(r.x)
	r.coef = make([]float64, 2*m)
	rule := opt.Stop.OrDefault()
	r.tracker = embed.NewTracker(rule)
	if m <= rule.SubsetSize {
		r.subset = make([]int32, m)
		for t := range r.subset {
			r.subset[t] = int32(t)
		}
	} else {
		r.subset = make([]int32, rule.SubsetSize)
		for t := range r.subset {
			r.subset[t] = int32(rng.IntN(m))
		}
	}
	// The authors measure the error once before training, so the first
	// check after Every epochs already compares against something.
	r.tracker.Observe(r.trainError(), 0)
	return r, nil
}

func (r *run) maxEpochs() int {
	if r.opt.MaxEpochs > 0 {
		return r.opt.MaxEpochs
	}
	return DefaultMaxEpochs
}

// factorDist returns d_ab = ‖x_a − x_b‖² for K = XXᵀ.
func factorDist(x *mat.Dense) sqDist {
	raw := x.RawMatrix()
	c := raw.Cols
	return func(a, b int32) float64 {
		xa := raw.Data[int(a)*raw.Stride : int(a)*raw.Stride+c]
		xb := raw.Data[int(b)*raw.Stride : int(b)*raw.Stride+c]
		s := 0.0
		for l, v := range xa {
			t := v - xb[l]
			s += t * t
		}
		return s
	}
}

// trace returns tr(XXᵀ) = ‖X‖²_F.
func trace(x *mat.Dense) float64 {
	f := mat.Norm(x, 2)
	return f * f
}

// objectiveAt returns the full objective at K = XXᵀ; with coef not nil it
// also stores the triplets' coefficients there, as gradient does.
func (r *run) objectiveAt(x *mat.Dense, coef []float64) float64 {
	return r.obj.evaluate(factorDist(x), r.s, 0, r.m, coef, r.pat.coefAt, r.threads) + r.obj.lambda*trace(x)
}

// gradient evaluates the objective of the triplets [from, to) (plus the trace
// term) at the current K and writes its gradient into g = [−w (edges), diag
// (items)]: entry (a, b) of the gradient, a ≠ b, is g[e] for the edge
// e = {a, b}; entry (a, a) is g[edges+a]. Entries off the pattern are zero.
func (r *run) gradient(from, to int, g []float64) float64 {
	if to-from < r.m {
		clear(r.coef)
	}
	loss := r.coefLoss
	if !r.coefAtX || to-from < r.m {
		loss = r.obj.evaluate(factorDist(r.x), r.s, from, to, r.coef, r.pat.coefAt, r.threads) + r.obj.lambda*trace(r.x)
	}
	r.coefAtX = false
	e := r.pat.edges()
	r.pat.gather(r.coef, g[:e], g[e:], r.obj.lambda, r.threads)
	for i := range g[:e] {
		g[i] = -g[i]
	}
	return loss
}

// project returns the factor of the nearest PSD matrix of rank ≤ d to
// XXᵀ + S, where S has the entries step (laid out like a gradient), and the
// eigensolver's warm start for it, starting the eigensolver from warm
// (usually r.warm, the current K's): the top d eigenpairs, negative eigenvalues
// clamped to 0. Should the eigensolver exhaust its restarts first, its best
// Ritz pairs are used: the projection is then approximate, never invalid
// (the result is PSD of rank ≤ d).
func (r *run) project(step []float64, warm *mat.Dense) (*mat.Dense, *mat.Dense, error) {
	return r.projectTo(step, warm, r.eigOpt.Tol)
}

// projectTo is project with the eigensolver's tolerance tol.
func (r *run) projectTo(step []float64, warm *mat.Dense, tol float64) (*mat.Dense, *mat.Dense, error) {
	e := r.pat.edges()
	op := newLowRankPlusSparse(r.x, r.pat, step[:e], step[e:], r.threads, r.adjVal)
	r.adjVal = op.adjVal
	opt := r.eigOpt
	opt.Tol = tol
	res, err := r.eig.topEigen(op, r.d, warm, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: projection: %w", r.method, err)
	}
	r.projections++
	r.products += res.Products
	x := res.Vectors
	scale := make([]float64, r.d)
	for l, v := range res.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, nil, embed.Diverged(r.method, len(r.res.Trace)+1)
		}
		scale[l] = math.Sqrt(math.Max(v, 0))
	}
	raw := x.RawMatrix()
	for i := 0; i < r.n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+r.d]
		for l := range row {
			row[l] *= scale[l]
		}
	}
	return x, res.Warm, nil
}

// trainError is the fraction of the check subset's triplets that K = XXᵀ
// violates (triplets.Violated: unless d_ij < d_ik), read off K directly.
func (r *run) trainError() float64 {
	dist := factorDist(r.x)
	wrong := 0
	for _, t := range r.subset {
		i, j, k := r.s.At(int(t))
		if triplets.Violated(dist(i, j), dist(i, k)) {
			wrong++
		}
	}
	return float64(wrong) / float64(len(r.subset))
}

// endEpoch records epoch's trace entry (loss is the epoch's summed
// objective), runs the stopping rule's check when due and reports whether the
// rule fired.
func (r *run) endEpoch(epoch int, loss float64) (stop bool, err error) {
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return false, embed.Diverged(r.method, epoch)
	}
	ep := embed.Epoch{Epoch: epoch, Loss: loss / float64(r.m), TrainError: math.NaN(), Elapsed: time.Since(r.start)}
	if r.tracker.Due(epoch) {
		ep.TrainError = r.trainError()
		stop = r.tracker.Observe(ep.TrainError, ep.Elapsed.Seconds())
	}
	r.res.Record(ep, r.opt.Progress)
	return stop, nil
}

// finish fills in the result.
func (r *run) finish(reason embed.StopReason) *embed.Result {
	r.res.Embedding = r.x
	r.res.StopReason = reason
	r.res.Elapsed = time.Since(r.start)
	r.res.TimeToConverge = r.res.Elapsed
	if hasCheck(r.res.Trace) {
		r.res.TimeToConverge = time.Duration(r.tracker.TimeToConverge() * float64(time.Second))
	}
	return r.res
}

func hasCheck(trace []embed.Epoch) bool {
	for _, e := range trace {
		if !math.IsNaN(e.TrainError) {
			return true
		}
	}
	return false
}
