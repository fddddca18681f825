package embed

import "time"

// DefaultCheckpointEvery is the least time between two writes of a
// checkpoint when Checkpoint.Every is 0: a fit cut short loses at most
// about this much work, and the writes (a file of the method's parameters
// and optimiser state) cost little beside it.
const DefaultCheckpointEvery = time.Minute

// Checkpoint asks a fit to keep its state in a file, so that a fit cut
// short (a budget's end, a cluster job's time limit, a crash) goes on from
// there when it is started again with the same Checkpoint, instead of from
// the beginning. The resumed fit takes the same steps as an uninterrupted
// one: its embedding and trace are the same, bit for bit; its times count
// the time it computed, not the pause. Methods whose Info says Resumable
// honour it on the CPU; the others ignore it.
//
// The file is written at the end of an epoch, at most every Every, and
// replaced whole (a reader or a crash never sees part of one). The fit
// does not remove it when it ends: the caller does, once the result is
// safe.
type Checkpoint struct {
	// Path is the file.
	Path string
	// ID names the fit: its problem and options, such as a run's cache key.
	// A fit refuses a file written under another ID.
	ID string
	// Every is the least time between writes (0: DefaultCheckpointEvery).
	Every time.Duration
}

// Due reports whether a fit whose last write (or start) was at last should
// write its checkpoint now.
func (c *Checkpoint) Due(last time.Time) bool {
	every := c.Every
	if every == 0 {
		every = DefaultCheckpointEvery
	}
	return time.Since(last) >= every
}

// TrackerState is what a Tracker has seen, for a checkpoint.
type TrackerState struct {
	Last      float64
	Checks    int
	LastGainT float64
}

// State returns what the tracker has seen.
func (t *Tracker) State() TrackerState {
	return TrackerState{Last: t.last, Checks: t.checks, LastGainT: t.lastGainT}
}

// ResumeTracker returns a tracker for rule r (already defaulted) that has
// seen what s records.
func ResumeTracker(r StopRule, s TrackerState) *Tracker {
	return &Tracker{rule: r, last: s.Last, checks: s.Checks, lastGainT: s.LastGainT}
}
