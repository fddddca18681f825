package exp

import (
	"github.com/oe-lab/oe/runner/internal/session"
	"github.com/oe-lab/oe/runner/job"
)

// Profiles scale an experiment: Smoke finishes in seconds (CI runs every
// script so), Quick reproduces the whole paper in under an hour on two cores
// (the default of make reproduce), Paper runs at the paper's full scale.
const (
	Smoke = "smoke"
	Quick = "quick"
	Paper = "paper"
)

// Metrics a Result carries (see Result.Value).
const (
	TrainError      = job.TrainError      // triplet error on the training triplets
	TestError       = job.TestError       // triplet error on 10,000 fresh noiseless triplets
	Procrustes      = job.Procrustes      // Procrustes disparity to the ground truth
	KNNError        = job.KNNError        // kNN classification error on the embedding
	KNNErrorData    = job.KNNErrorData    // kNN classification error on the original data
	FitSeconds      = job.FitSeconds      // wall time of the fit
	ConvergeSeconds = job.ConvergeSeconds // the paper's running time (until convergence)
	Epochs          = job.Epochs          // epochs run
	Triplets        = job.Triplets        // training triplets
	Queries         = job.Queries         // oracle queries of an active method
)

// Noise models for Run.Noise.
const (
	Bernoulli = "bernoulli" // flip each triplet with probability NoiseLevel
	Gaussian  = "gaussian"  // add N(0, NoiseLevel²) to both distances
)

// Profile returns the profile the script runs under.
func Profile() string { return current().Profile }

// Pick returns smoke, quick or paper according to the profile.
func Pick(smoke, quick, paper int) int {
	switch Profile() {
	case Smoke:
		return smoke
	case Paper:
		return paper
	}
	return quick
}

// PickFloat is Pick for real numbers.
func PickFloat(smoke, quick, paper float64) float64 {
	switch Profile() {
	case Smoke:
		return smoke
	case Paper:
		return paper
	}
	return quick
}

// PickList is Pick for lists (datasets, algorithms, swept values).
func PickList(smoke, quick, paper []string) []string {
	switch Profile() {
	case Smoke:
		return smoke
	case Paper:
		return paper
	}
	return quick
}

// PickFloats is Pick for lists of numbers.
func PickFloats(smoke, quick, paper []float64) []float64 {
	switch Profile() {
	case Smoke:
		return smoke
	case Paper:
		return paper
	}
	return quick
}

func current() *session.Session {
	s := session.Current()
	if s == nil {
		panic("exp: no experiment session: run scripts with `oerun experiments/<name>.go`")
	}
	return s
}
