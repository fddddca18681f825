package embed

import "math"

// StopRule is the paper's stopping rule: every Every epochs, measure the train
// triplet error on a fixed random subset of SubsetSize training triplets, and
// stop once it has changed by less than Threshold since the previous check.
// The authors' code (evaluate-OE) checks every 50 epochs on 100,000 triplets
// drawn at random from the training set, with threshold 0.005, and reports
// as a run's time the time until the last check at which the error improved
// by more than the threshold (Tracker.TimeToConverge).
type StopRule struct {
	Every      int
	SubsetSize int
	Threshold  float64
	// Disabled runs to MaxEpochs, still recording the train error at checks.
	Disabled bool
}

// DefaultStopRule returns the paper's rule.
func DefaultStopRule() StopRule {
	return StopRule{Every: 50, SubsetSize: 100_000, Threshold: 0.005}
}

// OrDefault returns r, or DefaultStopRule() when r is the zero value.
func (r StopRule) OrDefault() StopRule {
	if r == (StopRule{}) {
		return DefaultStopRule()
	}
	d := DefaultStopRule()
	if r.Every <= 0 {
		r.Every = d.Every
	}
	if r.SubsetSize <= 0 {
		r.SubsetSize = d.SubsetSize
	}
	if r.Threshold <= 0 {
		r.Threshold = d.Threshold
	}
	return r
}

// Tracker applies a StopRule to the sequence of checked train errors.
type Tracker struct {
	rule      StopRule
	last      float64
	checks    int
	lastGainT float64 // elapsed seconds at the last check that improved enough
}

// NewTracker returns a tracker for rule r (already defaulted).
func NewTracker(r StopRule) *Tracker { return &Tracker{rule: r, last: math.NaN()} }

// Due reports whether epoch (1-based) is a check epoch.
func (t *Tracker) Due(epoch int) bool { return epoch%t.rule.Every == 0 }

// Observe records the train error measured at a check at elapsedSeconds and
// reports whether the run should stop.
func (t *Tracker) Observe(trainErr, elapsedSeconds float64) (stop bool) {
	t.checks++
	changed := math.IsNaN(t.last) || math.Abs(t.last-trainErr) >= t.rule.Threshold
	t.last = trainErr
	if changed {
		t.lastGainT = elapsedSeconds
		return false
	}
	return !t.rule.Disabled
}

// TimeToConverge returns the elapsed seconds at the last check whose error
// changed by at least the threshold.
func (t *Tracker) TimeToConverge() float64 { return t.lastGainT }
