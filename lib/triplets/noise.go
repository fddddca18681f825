package triplets

import (
	"fmt"
	"math"
)

// NoiseModel names how answers are corrupted.
type NoiseModel string

// Noise models of the paper's noise experiment.
const (
	// NoNoise answers every comparison truthfully.
	NoNoise NoiseModel = ""
	// Bernoulli flips each true triplet (i,j,k) to (i,k,j) with probability Level.
	Bernoulli NoiseModel = "bernoulli"
	// Gaussian adds independent N(0, Level) noise (Level is the standard
	// deviation) to each of the two Euclidean distances before comparing them.
	Gaussian NoiseModel = "gaussian"
)

// Noise is a noise model with its level.
type Noise struct {
	Model NoiseModel
	Level float64
}

// Check rejects unknown models and out-of-range levels.
func (n Noise) Check() error {
	switch n.Model {
	case NoNoise:
		return nil
	case Bernoulli:
		if !(n.Level >= 0 && n.Level <= 1) {
			return fmt.Errorf("triplets: Bernoulli flip probability must be in [0,1], got %v", n.Level)
		}
	case Gaussian:
		if !(n.Level >= 0) || math.IsInf(n.Level, 0) {
			return fmt.Errorf("triplets: Gaussian noise σ must be finite and ≥ 0, got %v", n.Level)
		}
	default:
		return fmt.Errorf("triplets: unknown noise model %q (want bernoulli or gaussian)", n.Model)
	}
	return nil
}

// String returns e.g. "bernoulli(0.1)" or "none".
func (n Noise) String() string {
	if n.Model == NoNoise {
		return "none"
	}
	return fmt.Sprintf("%s(%g)", n.Model, n.Level)
}
