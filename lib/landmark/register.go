package landmark

import (
	"fmt"
	"math"

	"github.com/oe-lab/oe/lib/embed"
)

// The versions are bumped whenever a change alters the results of a
// method; the run cache keys on them.
const (
	loeVersion = 1
	// lloeVersion 2: phase one's SOE is tripletloss version 2. Its version
	// 3 changed only how the stopping rule's checks count ties, and phase
	// one runs with the rule off, so LLOE's results did not change.
	lloeVersion = 2
)

func init() {
	embed.Register(embed.Info{
		Name: "loe", Active: true, Version: loeVersion,
		Family: embed.FamilyLandmark,
		Params: embed.Params{"landmarks": 0, "multiplier": DefaultLOEMultiplier},
		ParamDocs: map[string]string{
			"landmarks":  "number ℓ of landmarks, a whole number (0: d+3)",
			"multiplier": "query multiplier λ > 0: about λ·n·d·log₂n queries, in whole multiples of ℓ·n·log₂n",
		},
		Doc: "Landmark Ordinal Embedding: BTL rankings to d+3 landmarks, EDM completion, Landmark MDS (landmarks 0 = d+3)",
		New: newLOE,
	})
	embed.Register(embed.Info{
		Name: "lloe", Active: true, Version: lloeVersion,
		Family: embed.FamilyLandmark,
		Params: embed.Params{
			"landmark_fraction": DefaultLLOELandmarkFraction,
			"subset_factor":     DefaultLLOESubsetFactor,
			"max_subset":        DefaultLLOEMaxSubset,
			"target_loss":       DefaultLLOETargetLoss,
			"multiplier":        DefaultLLOEMultiplier,
			"phase2_lr":         DefaultLLOEPhase2LR,
			"phase2_iterations": DefaultLLOEPhase2Iterations,
			"variant":           0,
		},
		LateParams: []string{"variant"},
		ParamDocs: map[string]string{
			"landmark_fraction": "fraction of the items counted as landmarks L = min(⌊fraction·n⌋, 100), which sets the first subset size",
			"subset_factor":     "first subset size s₀ = min(⌊n/2⌋, ⌈factor·L⌉, max_subset), doubled while SOE's loss stays below target_loss",
			"max_subset":        "largest subset embedded with SOE in phase 1, a whole number",
			"target_loss":       "phase 1 accepts a subset size while SOE's final mean loss is below this",
			"multiplier":        "phase 1 triplet multiplier λ > 0: ⌊λ·s·d·log₂s⌋ queries for a subset of size s",
			"phase2_lr":         "learning rate of phase 2's AMSGrad, which places each remaining item against 2(d+1) anchors",
			"phase2_iterations": "AMSGrad steps per item in phase 2, a whole number",
			"variant":           "0: Anderton & Aslam's method as described; 1: as the authors' code ran it for the paper's Table 3 (every Departure, landmark.AuthorsCode)",
		},
		Doc: "Large-scale Landmark OE: SOE on a subset, then binary-search insertion against 2(d+1) anchors",
		New: newLLOE,
	})
}

func newLOE(p embed.Params) (embed.Algorithm, error) {
	k, err := count("loe", "landmarks", p.Get("landmarks", 0))
	if err != nil {
		return nil, err
	}
	l := &LOE{Landmarks: k, Multiplier: p.Get("multiplier", DefaultLOEMultiplier)}
	if _, err := l.multiplier(); err != nil {
		return nil, err
	}
	return l, nil
}

func newLLOE(p embed.Params) (embed.Algorithm, error) {
	maxSubset, err := count("lloe", "max_subset", p.Get("max_subset", DefaultLLOEMaxSubset))
	if err != nil {
		return nil, err
	}
	iters, err := count("lloe", "phase2_iterations", p.Get("phase2_iterations", DefaultLLOEPhase2Iterations))
	if err != nil {
		return nil, err
	}
	variants := map[float64]Departure{0: 0, 1: AuthorsCode}
	replay, ok := variants[p.Get("variant", 0)]
	if !ok {
		return nil, fmt.Errorf("lloe: variant must be 0 (as described) or 1 (the authors' code), got %v", p.Get("variant", 0))
	}
	l := &LLOE{
		Replay:           replay,
		LandmarkFraction: p.Get("landmark_fraction", DefaultLLOELandmarkFraction),
		SubsetFactor:     p.Get("subset_factor", DefaultLLOESubsetFactor),
		MaxSubset:        maxSubset,
		TargetLoss:       p.Get("target_loss", DefaultLLOETargetLoss),
		Multiplier:       p.Get("multiplier", DefaultLLOEMultiplier),
		Phase2LR:         p.Get("phase2_lr", DefaultLLOEPhase2LR),
		Phase2Iterations: iters,
	}
	if _, err := l.config(); err != nil {
		return nil, err
	}
	return l, nil
}

// count converts a parameter that must be a non-negative whole number.
func count(method, name string, v float64) (int, error) {
	if !(v >= 0) || v != math.Trunc(v) || v > math.MaxInt32 {
		return 0, fmt.Errorf("%s: %s must be a whole number ≥ 0, got %v", method, name, v)
	}
	return int(v), nil
}

// checkActive makes the checks both active methods' Fit start with: the
// CPU backend, an optimiser the method has, a problem with an oracle, and
// a declared n (if any) equal to the oracle's. It returns the number of
// items and the embedding dimension.
func checkActive(method string, p embed.Problem, opt embed.Options) (n, d int, err error) {
	if err := opt.RequireCPU(method); err != nil {
		return 0, 0, err
	}
	if _, err := opt.OptimizerFor(method); err != nil {
		return 0, 0, err
	}
	if err := p.Check(false); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", method, err)
	}
	n = p.Oracle.N()
	if p.N > 0 && p.N != n {
		return 0, 0, fmt.Errorf("%s: problem has n=%d but the oracle has %d items", method, p.N, n)
	}
	return n, p.Dim, nil
}
