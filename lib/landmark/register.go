package landmark

import (
	"fmt"
	"math"

	"github.com/oe-lab/oe/lib/embed"
)

// version is bumped whenever a change alters the results of these methods;
// the run cache keys on it.
const version = 1

func init() {
	embed.Register(embed.Info{
		Name: "loe", Active: true, Version: version,
		Family: embed.FamilyLandmark,
		Params: embed.Params{"landmarks": 0, "multiplier": DefaultLOEMultiplier},
		Doc:    "Landmark Ordinal Embedding: BTL rankings to d+3 landmarks, EDM completion, Landmark MDS (landmarks 0 = d+3)",
		New:    newLOE,
	})
	embed.Register(embed.Info{
		Name: "lloe", Active: true, Version: version,
		Family: embed.FamilyLandmark,
		Params: embed.Params{
			"landmark_fraction": DefaultLLOELandmarkFraction,
			"subset_factor":     DefaultLLOESubsetFactor,
			"max_subset":        DefaultLLOEMaxSubset,
			"target_loss":       DefaultLLOETargetLoss,
			"multiplier":        DefaultLLOEMultiplier,
			"phase2_lr":         DefaultLLOEPhase2LR,
			"phase2_iterations": DefaultLLOEPhase2Iterations,
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
	if !(l.Multiplier > 0) || math.IsInf(l.Multiplier, 0) {
		return nil, fmt.Errorf("loe: multiplier must be finite and > 0, got %v", l.Multiplier)
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
	l := &LLOE{
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
