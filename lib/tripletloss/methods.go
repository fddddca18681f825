package tripletloss

import (
	"context"
	"fmt"
	"math"

	"github.com/oe-lab/oe/lib/cuda"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/internal/param"
)

// Registry defaults of the hyper-parameters.
const (
	// DefaultMargin is SOE's hinge margin.
	DefaultMargin = 1.0
	// DefaultMu is CKL-x's μ: the default of ckl_x in the authors' code.
	DefaultMu = 0.01
)

// version is bumped whenever a change alters the results of these methods;
// the run cache keys on it. Version 2: the gradient is summed in an order
// fixed by the triplets alone, not by the thread count (kernel.go), and the
// distances without fused multiply-adds, so that the assembly and its Go
// twin agree bit for bit; version 1 runs differ from it by rounding.
// Version 3: the stopping rule's checks count a tie as violated
// (triplets.Violated), as lib/metrics does; float32 distances tie a few times
// in 10⁷ comparisons (CHAR, d = 30), so a checked train error, and rarely the
// check at which a run stops, can differ from version 2 by one triplet in the
// subset.
const version = 3

// logisticVersion is STE's and t-STE's Version. Version 4: their softplus
// and sigmoid are lib/internal/numeric's own exponential and logarithm,
// computed four at a time (asm.SoftplusSigmoids), instead of math.Exp and
// math.Log1p: within 2 ulp of them, the same bits on every machine, and
// STE fits CHAR (d = 30) 1.8× faster; results differ from version 3 by
// rounding.
const logisticVersion = 4

// SOE is Soft Ordinal Embedding (Terada & von Luxburg 2014) as the paper runs
// it: minimise Σ max(0, Margin + ‖xᵢ−xⱼ‖ − ‖xᵢ−xₖ‖) with Adam.
type SOE struct {
	// Margin of the hinge; 0 means DefaultMargin.
	Margin float64
}

// STE is Stochastic Triplet Embedding (van der Maaten & Weinberger 2012):
// maximise Σ log p, p = e^−dᵢⱼ/(e^−dᵢⱼ + e^−dᵢₖ), d the squared distances.
type STE struct{}

// TSTE is t-distributed STE: p built from the Student-t kernel
// (1 + d/α)^(−(α+1)/2) of the squared distances.
type TSTE struct {
	// Alpha is the degrees of freedom α; 0 means d−1 (at least 1), the
	// authors' recommendation that the paper follows.
	Alpha float64
}

// CKLX is the variant of Crowd Kernel Learning that the paper optimises over
// X directly: maximise Σ log p, p = (μ + dᵢₖ)/(2μ + dᵢⱼ + dᵢₖ), d the squared
// distances. As in the authors' code its initial embedding is scaled by 0.1.
type CKLX struct {
	// Mu is μ; 0 means DefaultMu.
	Mu float64
	// StartFromSOE starts the fit from SOE's embedding of the same triplets
	// (SOE's defaults, the same seed), centred and scaled to the spread of
	// the random start, instead of from the random start. CKL's likelihood
	// gives far pairs almost no gradient, so from a random start at low d
	// the layout can stay folded: CHAR, d = 2, λ = 1, 10% flipped answers,
	// 0.44 test error from the random start, 0.30–0.31 from SOE's, which
	// gets 0.30 itself (bench/gram.md). The time of the SOE fit counts in
	// the run's.
	StartFromSOE bool
}

// GNMDSX is GNMDS's objective optimised over X directly, as CKL-x is CKL's
// (the paper names that one CKL-x; this is GNMDS-x): minimise
// Σ max(0, 1 + dᵢⱼ − dᵢₖ) + λ‖X‖²_F, d the squared distances, the form in
// which paper section 2 writes GNMDS's objective (tr(K) = ‖X‖²_F for
// K = XXᵀ). van der Maaten's gnmds_x and cblearn's GNMDS minimise the same
// over X; lib/gram's GNMDS takes projected steps on K instead.
type GNMDSX struct {
	// Lambda is the trace regulariser λ ≥ 0 (GNMDS's in the paper: 0).
	Lambda float64
}

// The five methods implement embed.Algorithm with pointer receivers.
var (
	_ embed.Algorithm = (*SOE)(nil)
	_ embed.Algorithm = (*STE)(nil)
	_ embed.Algorithm = (*TSTE)(nil)
	_ embed.Algorithm = (*CKLX)(nil)
	_ embed.Algorithm = (*GNMDSX)(nil)
)

// Name returns "soe".
func (*SOE) Name() string { return "soe" }

// Name returns "ste".
func (*STE) Name() string { return "ste" }

// Name returns "tste".
func (*TSTE) Name() string { return "tste" }

// Name returns "cklx".
func (*CKLX) Name() string { return "cklx" }

// Name returns "gnmdsx".
func (*GNMDSX) Name() string { return "gnmdsx" }

// Fit embeds p.Train in p.Dim dimensions. On cancellation it returns the
// embedding so far (StopReason canceled) together with the context's error.
func (s *SOE) Fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	return fitWith(ctx, s, p, opt)
}

// Fit embeds p.Train in p.Dim dimensions; see SOE.Fit.
func (s *STE) Fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	return fitWith(ctx, s, p, opt)
}

// Fit embeds p.Train in p.Dim dimensions; see SOE.Fit.
func (t *TSTE) Fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	return fitWith(ctx, t, p, opt)
}

// Fit embeds p.Train in p.Dim dimensions; see SOE.Fit.
func (c *CKLX) Fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	return fitWith(ctx, c, p, opt)
}

// Fit embeds p.Train in p.Dim dimensions; see SOE.Fit.
func (g *GNMDSX) Fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	return fitWith(ctx, g, p, opt)
}

// method is implemented by the five algorithms: resolve validates their
// hyper-parameters and resolves their defaults for a run in dim dimensions.
// Fit and the registry's factories (dim 0: only validating) both call it.
type method interface {
	embed.Algorithm
	resolve(dim int) (run, error)
}

func fitWith(ctx context.Context, m method, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	r, err := m.resolve(p.Dim)
	if err != nil {
		return nil, err
	}
	return r.fit(ctx, p, opt)
}

func (s *SOE) resolve(int) (run, error) {
	margin := param.OrDefault(s.Margin, DefaultMargin)
	if err := param.Positive("soe", "margin", margin); err != nil {
		return run{}, err
	}
	return run{name: "soe", loss: lossFunc{kindSOE, margin}, initScale: 1}, nil
}

func (*STE) resolve(int) (run, error) {
	return run{name: "ste", loss: lossFunc{kind: kindSTE}, initScale: 1}, nil
}

func (t *TSTE) resolve(dim int) (run, error) {
	alpha := t.Alpha
	if alpha == 0 {
		alpha = math.Max(1, float64(dim-1))
	}
	if err := param.Positive("tste", "alpha", alpha); err != nil {
		return run{}, err
	}
	return run{name: "tste", loss: lossFunc{kindTSTE, alpha}, initScale: 1}, nil
}

func (c *CKLX) resolve(int) (run, error) {
	mu := param.OrDefault(c.Mu, DefaultMu)
	if err := param.Positive("cklx", "mu", mu); err != nil {
		return run{}, fmt.Errorf("%w (CKL-x needs μ > 0 to keep p defined at zero distances)", err)
	}
	r := run{name: "cklx", loss: lossFunc{kindCKLX, mu}, initScale: 0.1}
	if c.StartFromSOE {
		r.startFrom = &SOE{}
	}
	return r, nil
}

// gnmdsMargin is GNMDS's margin: 1, as in its objective (paper section 2).
const gnmdsMargin = 1

func (g *GNMDSX) resolve(int) (run, error) {
	if err := param.NonNegative("gnmdsx", "lambda", g.Lambda); err != nil {
		return run{}, err
	}
	return run{name: "gnmdsx", loss: lossFunc{kindGNMDSX, gnmdsMargin}, ridge: g.Lambda, initScale: 1}, nil
}

// checked returns m once its parameters resolve: the registry's factories.
func checked(m method) (embed.Algorithm, error) {
	if _, err := m.resolve(0); err != nil {
		return nil, err
	}
	return m, nil
}

// gpuBackends are the backends besides cpu that the five methods run on.
var gpuBackends = map[embed.Backend]func() error{embed.BackendCUDA: cuda.Available}

// optimizers are the optimisers of the five methods, the paper's Adam
// first (the default).
var optimizers = []embed.Optimizer{embed.OptimizerAdam, embed.OptimizerLBFGS}

func init() {
	embed.Register(embed.Info{
		Name: "soe", Family: embed.FamilyEmbedding, Version: version, Backends: gpuBackends, Optimizers: optimizers, Resumable: true, Params: embed.Params{"margin": DefaultMargin},
		ParamDocs: map[string]string{"margin": "margin δ > 0 of the hinge max(0, δ + ‖xᵢ−xⱼ‖ − ‖xᵢ−xₖ‖)"},
		Doc:       "Soft Ordinal Embedding: hinge on distances, Adam",
		New: func(p embed.Params) (embed.Algorithm, error) {
			return checked(&SOE{Margin: p.Get("margin", DefaultMargin)})
		},
	})
	embed.Register(embed.Info{
		Name: "ste", Family: embed.FamilyEmbedding, Version: logisticVersion, Backends: gpuBackends, Optimizers: optimizers, Resumable: true, Params: embed.Params{},
		Doc: "Stochastic Triplet Embedding (Gaussian kernel), Adam",
		New: func(embed.Params) (embed.Algorithm, error) { return checked(&STE{}) },
	})
	embed.Register(embed.Info{
		Name: "tste", Family: embed.FamilyEmbedding, Version: logisticVersion, Backends: gpuBackends, Optimizers: optimizers, Resumable: true, Params: embed.Params{"alpha": 0},
		ParamDocs: map[string]string{"alpha": "degrees of freedom α > 0 of the Student-t kernel (0: d−1, at least 1)"},
		Doc:       "t-distributed Stochastic Triplet Embedding (alpha 0 = d-1), Adam",
		New: func(p embed.Params) (embed.Algorithm, error) {
			return checked(&TSTE{Alpha: p.Get("alpha", 0)})
		},
	})
	embed.Register(embed.Info{
		Name: "cklx", Family: embed.FamilyEmbedding, Version: version, Backends: gpuBackends, Optimizers: optimizers, Resumable: true, Params: embed.Params{"mu": DefaultMu, "init": 0},
		LateParams: []string{"init"},
		ParamDocs: map[string]string{"mu": "μ > 0 added to the squared distances of the CKL probability (μ + d²ᵢₖ)/(2μ + d²ᵢⱼ + d²ᵢₖ)",
			"init": "starting embedding: 0 uniform random in [0, 0.1)^d (the authors'), 1 SOE's embedding of the same triplets scaled to that spread (against folded layouts at low d)"},
		Doc: "Crowd Kernel Learning probabilities optimised over X (CKL-x), Adam; on real data start it from SOE (--param init=1)",
		New: func(p embed.Params) (embed.Algorithm, error) {
			fromSOE, err := param.Switch("cklx", "init", p.Get("init", 0), "random", "SOE's embedding")
			if err != nil {
				return nil, err
			}
			return checked(&CKLX{Mu: p.Get("mu", DefaultMu), StartFromSOE: fromSOE})
		},
	})
	embed.Register(embed.Info{
		Name: "gnmdsx", Family: embed.FamilyEmbedding, Version: version, Backends: gpuBackends, Optimizers: optimizers, Resumable: true, Params: embed.Params{"lambda": 0},
		ParamDocs: map[string]string{"lambda": "trace regulariser λ ≥ 0 of λ‖X‖²_F = λ·tr(K) (GNMDS's in the paper: 0)"},
		Doc:       "GNMDS's hinge on squared distances optimised over X (GNMDS-x), Adam; the factored GNMDS to use on real data",
		New: func(p embed.Params) (embed.Algorithm, error) {
			return checked(&GNMDSX{Lambda: p.Get("lambda", 0)})
		},
	})
}
