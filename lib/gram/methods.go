package gram

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/internal/parallel"
	"github.com/oe-lab/oe/lib/internal/param"
	"github.com/oe-lab/oe/lib/optim"
)

// Default hyper-parameters, from the paper's appendix and the authors' code.
const (
	// DefaultBatchSize is min(#triplets, 10⁶) in the paper.
	DefaultBatchSize = 1_000_000
	gnmdsLR          = 10
	cklLR            = 100
	cklMu            = 0.1
	forteStep        = 100
	forteRho         = 0.5
	forteC1          = 1e-4
	// forteMaxBacktracks bounds the line search: the step shrinks to at most
	// ρ^20 ≈ 10⁻⁶ times its starting value before the iteration gives up.
	forteMaxBacktracks = 20
)

// GNMDS is Generalized Non-metric MDS (Agarwal et al. 2007) over the Gram
// matrix: Σ max(0, 1 + d_ij − d_ik) + λ·tr(K), minimised by Adam (AMSGrad,
// learning rate 10) with a projection onto rank-d PSD matrices after every
// step.
type GNMDS struct {
	// Lambda is the trace regulariser λ ≥ 0 (paper: 0).
	Lambda float64
	// OneStep replays the authors' code instead (see adamScheme.fit): one Adam
	// step and one projection.
	OneStep bool
	// ProjectionTol is the eigensolver's relative residual tolerance in
	// every projection (0: projectionTol, 10⁻⁶, the exact projection the
	// paper's symeig makes). A loose one (10⁻², or 10⁻¹: one block product
	// a projection) leaves each projection close to the current
	// eigenvectors, a damping of the step: beyond the paper, faster, and on
	// CHAR at d = 30 more accurate (bench/gram.md).
	ProjectionTol float64
}

// The three methods implement embed.Algorithm with pointer receivers.
var (
	_ embed.Algorithm = (*GNMDS)(nil)
	_ embed.Algorithm = (*CKL)(nil)
	_ embed.Algorithm = (*FORTE)(nil)
)

// Name returns "gnmds".
func (*GNMDS) Name() string { return "gnmds" }

// check validates the hyper-parameters; Fit and the registry's factory
// both call it.
func (g *GNMDS) check() error {
	if err := param.NonNegative("gnmds", "lambda", g.Lambda); err != nil {
		return err
	}
	return checkTol("gnmds", g.ProjectionTol)
}

// checkTol checks a ProjectionTol: 0 (the default) or in (0, 1).
func checkTol(method string, tol float64) error {
	if !(tol >= 0 && tol < 1) {
		return fmt.Errorf("%s: tol must be 0 (exact projections, 10⁻⁶) or in (0, 1), got %v", method, tol)
	}
	return nil
}

// Fit embeds the problem's items.
func (g *GNMDS) Fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	if err := g.check(); err != nil {
		return nil, err
	}
	return adamScheme{method: "gnmds", obj: objective{kind: hinge, lambda: g.Lambda}, lr: gnmdsLR,
		oneStep: g.OneStep, tol: g.ProjectionTol}.fit(ctx, p, opt)
}

// CKL is Crowd Kernel Learning (Tamuz et al. 2011) over the Gram matrix: the
// negative log-likelihood Σ −log((μ + d_ik)/(2μ + d_ij + d_ik)) + λ·tr(K),
// minimised by Adam (AMSGrad, learning rate 100) with a projection onto
// rank-d PSD matrices after every step.
type CKL struct {
	// Mu is μ > 0 (the authors' code: 0.1).
	Mu float64
	// Lambda is the trace regulariser λ ≥ 0 (paper: 0).
	Lambda float64
	// OneStep replays the authors' code instead (see adamScheme.fit): one Adam
	// step and one projection.
	OneStep bool
	// ProjectionTol is the eigensolver's relative residual tolerance in
	// every projection (0: projectionTol, 10⁻⁶, the exact projection the
	// paper's symeig makes). A loose one (10⁻², or 10⁻¹: one block product
	// a projection) leaves each projection close to the current
	// eigenvectors, a damping of the step: beyond the paper, faster, and on
	// CHAR at d = 30 more accurate (bench/gram.md).
	ProjectionTol float64
}

// Name returns "ckl".
func (*CKL) Name() string { return "ckl" }

// check validates the hyper-parameters; Fit and the registry's factory
// both call it.
func (c *CKL) check() error {
	if err := param.Positive("ckl", "mu", c.Mu); err != nil {
		return err
	}
	if err := param.NonNegative("ckl", "lambda", c.Lambda); err != nil {
		return err
	}
	return checkTol("ckl", c.ProjectionTol)
}

// Fit embeds the problem's items.
func (c *CKL) Fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	return adamScheme{method: "ckl", obj: objective{kind: crowdKernel, mu: c.Mu, lambda: c.Lambda}, lr: cklLR,
		oneStep: c.OneStep, tol: c.ProjectionTol}.fit(ctx, p, opt)
}

// adamScheme is the Adam-then-project scheme of GNMDS and CKL, set up for
// one of them.
type adamScheme struct {
	method  string
	obj     objective
	lr      float64 // the default learning rate
	oneStep bool
	tol     float64 // the projections' tolerance (0: projectionTol)
}

// fit runs the Adam-then-project scheme of GNMDS and CKL: batches are
// consecutive, near-equal slices of the triplets of at most BatchSize
// (default 10⁶) each; every batch makes one Adam step on the entries of K it
// touches, followed by the projection.
//
// With oneStep the run is what the authors' code (evaluate-OE, lib/gnmds.py
// and lib/ckl.py) computed for the paper's Table 3: it hands the initial K
// to torch's Adam and then rebinds K to its projection after the first
// step, so every later step updates a tensor the loss no longer reads, and
// projecting the projected K changes nothing. The run is therefore one Adam
// step on the first batch from K₀ and one projection, recorded as one epoch
// that converged (bench/gram.md measures both on CHAR).
func (s adamScheme) fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	method := s.method
	if _, err := opt.OptimizerFor(method, embed.OptimizerAdam); err != nil {
		return nil, err
	}
	lr, err := opt.LR(s.lr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if opt.BatchSize < 0 {
		return nil, fmt.Errorf("%s: batch size must be ≥ 0, got %d", method, opt.BatchSize)
	}
	r, err := newRun(ctx, method, s.obj, p, opt, false)
	if err != nil {
		return nil, err
	}
	if s.tol > 0 {
		r.eigOpt.Tol = s.tol
	}
	bs := DefaultBatchSize
	if opt.BatchSize > 0 {
		bs = opt.BatchSize
	}
	batches := parallel.Chunks(r.m, min(bs, r.m))
	size := r.pat.edges() + r.n
	adam, err := optim.NewAdam[float64](size, lr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.method, err)
	}
	// A checkpoint (opt.Checkpoint) holds the state after some epochs and
	// batches of the next: the fit goes on from there.
	cp := opt.Checkpoint
	first, resumeBatches, resumeLoss := 1, 0, 0.0
	if cp != nil {
		h, st, ok, err := r.loadCheckpoint(cp, size, batches)
		if err != nil {
			return nil, err
		}
		if ok {
			if err := st.restore(cp.Path, h, r, adam); err != nil {
				return nil, err
			}
			first, resumeBatches, resumeLoss = h.Epochs+1, st.Batches, st.LossSum
		}
	}
	lastSave := time.Now()
	g := make([]float64, size)
	step := make([]float64, size)
	for epoch := first; epoch <= r.maxEpochs(); epoch++ {
		loss, from := resumeLoss, resumeBatches
		resumeLoss, resumeBatches = 0, 0
		for b := from; b < batches; b++ {
			// Between two batches: cut short, the fit keeps its state so
			// that it loses no projection it made (seconds each at USPS
			// size); and every Checkpoint.Every, so that a crash loses no
			// more.
			if err := r.ctx.Err(); err != nil {
				if cp != nil {
					// A failed write leaves the fit cut short (not
					// failed), and says why no state was kept.
					err = errors.Join(err, r.saveCheckpoint(cp, epoch-1, b, loss, adam))
				}
				return r.finish(embed.StopCanceled), fmt.Errorf("%s: epoch %d: %w", r.method, epoch, err)
			}
			if cp != nil && b > from && cp.Due(lastSave) {
				if err := r.saveCheckpoint(cp, epoch-1, b, loss, adam); err != nil {
					return nil, err
				}
				lastSave = time.Now()
			}
			loss += r.gradient(b*r.m/batches, (b+1)*r.m/batches, g)
			if err := adam.NextStep(); err != nil {
				return nil, fmt.Errorf("%s: %w", r.method, err)
			}
			// The parameters (K) are never stored: the step is the sparse
			// matrix to project, −(Adam's update).
			parallel.ForChunks(r.threads, size, 1<<16, func(_, lo, hi int) {
				adam.DeltaRange(step[lo:hi], g[lo:hi], lo)
				for i, v := range step[lo:hi] {
					step[lo+i] = -v
				}
			})
			if r.x, r.warm, err = r.project(step, r.warm); err != nil {
				return nil, err
			}
			if s.oneStep {
				break
			}
		}
		stop, err := r.endEpoch(epoch, loss)
		if err != nil {
			return nil, err
		}
		if stop || s.oneStep {
			return r.finish(embed.StopConverged), nil
		}
		if cp != nil && epoch < r.maxEpochs() && cp.Due(lastSave) {
			if err := r.saveCheckpoint(cp, epoch, 0, 0, adam); err != nil {
				return nil, err
			}
			lastSave = time.Now()
		}
	}
	return r.finish(embed.StopMaxEpochs), nil
}

// FORTE is Fast Ordinal Triplet Embedding (Jain, Jamieson & Nowak 2016): the
// logistic loss Σ log(1 + exp(d_ij − d_ik)) minimised by rank-d projected
// gradient descent with a backtracking (Armijo) line search.
//
// Every epoch is one full-batch iteration: from step α (initially the
// learning rate, 100), the candidate P_d(K − αG) is accepted when
// f(candidate) ≤ f(K) − c₁·⟨G, K − candidate⟩ and f(candidate) ≤ f(K);
// otherwise α ← ρα and the candidate is recomputed, at most 20 times. The
// accepted α carries over to the next iteration. If no step is accepted, K
// is left as it is and the run stops (no descent found). The objective is
// thus non-increasing.
type FORTE struct {
	// Rho is the backtracking factor ρ ∈ (0, 1) (paper: 0.5).
	Rho float64
	// C1 is the Armijo constant c₁ ∈ (0, 1) (paper: 10⁻⁴).
	C1 float64
}

// Name returns "forte".
func (*FORTE) Name() string { return "forte" }

// check validates the hyper-parameters; Fit and the registry's factory
// both call it.
func (f *FORTE) check() error {
	if !(f.Rho > 0 && f.Rho < 1) {
		return fmt.Errorf("forte: rho must be in (0, 1), got %v", f.Rho)
	}
	if !(f.C1 > 0 && f.C1 < 1) {
		return fmt.Errorf("forte: c1 must be in (0, 1), got %v", f.C1)
	}
	return nil
}

// Fit embeds the problem's items.
func (f *FORTE) Fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	if _, err := opt.OptimizerFor("forte"); err != nil {
		return nil, err
	}
	alpha, err := opt.LR(forteStep)
	if err != nil {
		return nil, fmt.Errorf("forte: %w", err)
	}
	r, err := newRun(ctx, "forte", objective{kind: logistic}, p, opt, true)
	if err != nil {
		return nil, err
	}
	size := r.pat.edges() + r.n
	g := make([]float64, size)
	step := make([]float64, size)
	w := make([]float64, r.pat.edges())
	for epoch := 1; epoch <= r.maxEpochs(); epoch++ {
		if err := r.ctx.Err(); err != nil {
			return r.finish(embed.StopCanceled), fmt.Errorf("%s: epoch %d: %w", r.method, epoch, err)
		}
		f0 := r.gradient(0, r.m, g)
		for e := range w {
			w[e] = -g[e]
		}
		var accepted bool
		if alpha, accepted, err = r.lineSearch(f, g, w, step, f0, alpha, epoch == 1); err != nil {
			return nil, err
		}
		stop, err := r.endEpoch(epoch, f0)
		if err != nil {
			return nil, err
		}
		if stop || !accepted {
			return r.finish(embed.StopConverged), nil
		}
	}
	return r.finish(embed.StopMaxEpochs), nil
}

// lineSearch makes FORTE's backtracking search from step alpha at the
// current K, with f0 = f(K), g the gradient and w = −g's edge part (step is
// scratch of g's size). It moves K to the accepted candidate and returns its
// step, or leaves K and returns false when none of the 1 + forteMaxBacktracks
// candidates is accepted.
//
// The candidates of the first iteration (screen) and of every backtrack are
// first projected to the loose tolerance screenTol: one whose objective then
// lies more than screenMargin above f(K) is rejected (an accepted candidate
// must not rise above f(K)); the others are projected again, from there, to
// the run's tolerance, and judged as before. From the paper's starting step
// of 100 the first iteration rejects about ten candidates by factors of 2
// to 500 (CHAR, d = 30), which a loose projection shows in a product or two
// instead of dozens (44 products instead of 201); a loose objective is
// within 10⁻⁴ of the exact one there, far inside the margin, so the
// decisions and the accepted candidate are those of exact projections.
// Later iterations mostly accept their first candidate, which is not
// screened: there screening would only add products.
func (r *run) lineSearch(f *FORTE, g, w, step []float64, f0, alpha float64, screen bool) (float64, bool, error) {
	// The first candidate starts the eigensolver from K's eigenvectors; each
	// backtrack from the previous candidate's, which are much closer when
	// the step dominates K (early on, or with a large learning rate):
	// K − αG and K − ραG then share their top eigenvectors, and the solve
	// takes a few products instead of dozens.
	start := r.warm
	for try := 0; try <= forteMaxBacktracks; try++ {
		for i, v := range g {
			step[i] = -alpha * v
		}
		if screen || try > 0 {
			x, warm, err := r.projectTo(step, start, screenTol)
			if err != nil {
				return alpha, false, err
			}
			start = warm
			if r.objectiveAt(x, nil) > f0+screenMargin*math.Abs(f0) {
				alpha *= f.Rho
				continue
			}
		}
		x, warm, err := r.project(step, start)
		if err != nil {
			return alpha, false, err
		}
		start = warm
		if r.candCoef == nil {
			r.candCoef = make([]float64, len(r.coef))
		}
		fx := r.objectiveAt(x, r.candCoef)
		descent := r.innerGradDiff(w, x)
		if fx <= f0-f.C1*descent && fx <= f0 {
			r.x, r.warm = x, warm
			r.coef, r.candCoef = r.candCoef, r.coef
			r.coefLoss, r.coefAtX = fx, true
			return alpha, true, nil
		}
		alpha *= f.Rho
	}
	return alpha, false, nil
}

// The line search's screening of candidates (see lineSearch): the loose
// eigensolver tolerance and the relative margin above f(K) beyond which a
// loosely projected candidate is rejected.
const (
	screenTol    = 1e-2
	screenMargin = 0.01
)

// innerGradDiff returns ⟨G, K − K'⟩ for the gradient G = Laplacian(w) + λI,
// K = XXᵀ (the current factor) and K' = YYᵀ: Σ_e w_e (d_e(K) − d_e(K')) +
// λ(tr K − tr K'), since ⟨Laplacian(w), K⟩ = Σ_e w_e d_e(K).
func (r *run) innerGradDiff(w []float64, y *mat.Dense) float64 {
	dk, dy := factorDist(r.x), factorDist(y)
	const perChunk = 8192
	edges := r.pat.edges()
	partial := parallel.Map(r.threads, edges, perChunk, func(_, from, to int) float64 {
		s := 0.0
		for e := from; e < to; e++ {
			a, b := r.pat.lo[e], r.pat.hi[e]
			s += w[e] * (dk(a, b) - dy(a, b))
		}
		return s
	})
	total := r.obj.lambda * (trace(r.x) - trace(y))
	for _, v := range partial {
		total += v
	}
	return total
}

// version is the registry Version of the three methods. Version 2: the
// eigensolver tests its residuals after every block product instead of once
// per full Krylov basis, FORTE's backtracks start it from the previous
// candidate's eigenvectors, and the sparse product sums four neighbours at a
// time. Every projection still meets the same tolerance (projectionTol), but
// stops at a different point within it, so results differ from version 1 by
// more than rounding (well within the run-to-run spread of the test error).
// Version 3: FORTE screens the candidates of its first iteration and of its
// backtracks with loose projections (lineSearch), so the accepted one's
// exact projection starts from another warm start; and a projection whose
// Krylov basis would hold 70% of n or more is dense (denseShare), where
// version 2 went dense only at 100%. Each projection still meets
// projectionTol; results differ from version 2 within it.
const version = 3

// forteVersion is FORTE's Version. Version 4: its logistic loss takes the
// softplus and the sigmoid from numeric.SoftplusSigmoid (lib/internal/
// numeric's own exponential and logarithm, the same bits on every machine)
// instead of math.Exp and math.Log1p; results differ from version 3 by
// rounding.
const forteVersion = 4

// paperMaxItems is the largest n the paper runs the Gram-matrix methods on:
// above 10,000 items "the Gram matrix becomes too large to fit in the GPU"
// (Section 4.2), so it leaves them out there.
const paperMaxItems = 10000

func init() {
	embed.Register(embed.Info{
		Name: "gnmds", Version: version, Factored: "gnmdsx", Optimizers: []embed.Optimizer{embed.OptimizerAdam},
		Family: embed.FamilyGram, PaperMaxItems: paperMaxItems, Resumable: true,
		Params:     embed.Params{"lambda": 0, "variant": 0, "tol": 0},
		LateParams: []string{"variant", "tol"},
		ParamDocs: map[string]string{
			"lambda":  "trace regulariser λ ≥ 0 of the Gram matrix (paper: 0)",
			"variant": variantDoc,
			"tol":     tolDoc,
		},
		Doc: "Generalized non-metric MDS: hinge loss on the Gram matrix, Adam + rank-d PSD projection (the paper's solver; " +
			"on real data use gnmdsx: material majority test error 0.191 here, 0.139 with gnmdsx --optimizer lbfgs)",
		New: func(p embed.Params) (embed.Algorithm, error) {
			oneStep, err := variant("gnmds", p)
			if err != nil {
				return nil, err
			}
			return checked(&GNMDS{Lambda: p.Get("lambda", 0), OneStep: oneStep, ProjectionTol: p.Get("tol", 0)})
		},
	})
	embed.Register(embed.Info{
		Name: "ckl", Version: version, Factored: "cklx", Optimizers: []embed.Optimizer{embed.OptimizerAdam},
		Family: embed.FamilyGram, PaperMaxItems: paperMaxItems, Resumable: true,
		Params:     embed.Params{"mu": cklMu, "lambda": 0, "variant": 0, "tol": 0},
		LateParams: []string{"variant", "tol"},
		ParamDocs: map[string]string{
			"mu":      "μ > 0 added to the squared distances of the CKL probability (the authors' code: 0.1)",
			"lambda":  "trace regulariser λ ≥ 0 of the Gram matrix (paper: 0)",
			"variant": variantDoc,
			"tol":     tolDoc,
		},
		Doc: "Crowd kernel learning: likelihood on the Gram matrix, Adam + rank-d PSD projection (the paper's solver; " +
			"on real data use cklx: material majority test error 0.207 here, 0.132 with cklx --param init=1 --optimizer lbfgs)",
		New: func(p embed.Params) (embed.Algorithm, error) {
			oneStep, err := variant("ckl", p)
			if err != nil {
				return nil, err
			}
			return checked(&CKL{Mu: p.Get("mu", cklMu), Lambda: p.Get("lambda", 0), OneStep: oneStep, ProjectionTol: p.Get("tol", 0)})
		},
	})
	embed.Register(embed.Info{
		Name: "forte", Version: forteVersion, Factored: "ste",
		Family: embed.FamilyGram, PaperMaxItems: paperMaxItems,
		Params: embed.Params{"rho": forteRho, "c1": forteC1},
		ParamDocs: map[string]string{
			"rho": "backtracking factor ρ ∈ (0, 1) of the line search (paper: 0.5)",
			"c1":  "Armijo constant c₁ ∈ (0, 1) of the line search (paper: 10⁻⁴)",
		},
		Doc: "FORTE: logistic loss on the Gram matrix, rank-d projected gradient descent with line search " +
			"(its loss over X is ste's: material majority test error 0.134 here and 0.135 with ste, at a third of the time)",
		New: func(p embed.Params) (embed.Algorithm, error) {
			return checked(&FORTE{Rho: p.Get("rho", forteRho), C1: p.Get("c1", forteC1)})
		},
	})
}

// tolDoc describes GNMDS's and CKL's tol parameter (ProjectionTol).
const tolDoc = "relative residual tolerance of each projection's eigensolver: 0 (default) is 10⁻⁶, the exact " +
	"projection the paper makes; 10⁻² or 10⁻¹ projects inexactly, close to the current eigenvectors (beyond the paper: " +
	"4× faster on CHAR at d = 30, test error 0.13–0.14 instead of 0.19, bench/gram.md)"

// variantDoc describes GNMDS's and CKL's variant parameter.
const variantDoc = "0: Adam steps and projections every batch of every epoch, as the paper describes; " +
	"1: as the authors' code ran it for the paper's Table 3, one Adam step and one projection (OneStep)"

// variant reads the registry parameter "variant": 0 as the paper describes
// the method, 1 as the authors' code ran it (OneStep).
func variant(method string, p embed.Params) (oneStep bool, err error) {
	return param.Switch(method, "variant", p.Get("variant", 0), "as described", "the authors' code")
}

// checked returns m once its parameters check: the registry's factories.
func checked(m interface {
	embed.Algorithm
	check() error
}) (embed.Algorithm, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	return m, nil
}
