package embed

import (
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/oe-lab/oe/lib/internal/atomicfile"
)

// DefaultCheckpointEvery is the least time between two writes of a
// checkpoint when Checkpoint.Every is 0: a fit killed without warning (a
// crash, SIGKILL) loses at most about this much work, and the writes (a
// file of the method's parameters and optimiser state) cost little beside
// it.
const DefaultCheckpointEvery = time.Minute

// Checkpoint asks a fit to keep its state in a file, so that a fit cut
// short (a budget's end, a cluster job's time limit, a crash) goes on from
// there when it is started again with the same Checkpoint, instead of from
// the beginning. The resumed fit takes the same steps as an uninterrupted
// one: its embedding and trace are the same, bit for bit; its times count
// the time it computed, not the pause. Methods whose Info says Resumable
// honour it on the CPU; the others ignore it.
//
// The file is written between two of the fit's steps (at the end of an
// epoch or within one), at most every Every, and when the fit's context is
// cancelled, before it returns: a fit cut short so (a budget's end, a
// cluster job's time limit, Ctrl-C) loses no step it took. It is
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

// Interval returns the least time between writes: Every, or
// DefaultCheckpointEvery where Every is 0.
func (c *Checkpoint) Interval() time.Duration {
	if c.Every == 0 {
		return DefaultCheckpointEvery
	}
	return c.Every
}

// Due reports whether a fit whose last write (or start) was at last should
// write its checkpoint now.
func (c *Checkpoint) Due(last time.Time) bool {
	return time.Since(last) >= c.Interval()
}

// CheckpointHeader opens every checkpoint file: which fit it is and how
// far it got. A campaign reads it to see what is left of a run
// (ReadCheckpoint with a nil state) without decoding the state behind it.
type CheckpointHeader struct {
	// ID is Checkpoint.ID.
	ID string
	// Epochs is the number of epochs done.
	Epochs int
	// Elapsed is the fit's time so far, pauses left out.
	Elapsed time.Duration
}

// WriteCheckpoint replaces the file path with the header h followed by the
// method's state (gob-encoded, each), creating its folder; a reader or a
// crash never sees part of one.
func WriteCheckpoint(path string, h CheckpointHeader, state any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("embed: writing the checkpoint %s: %w", path, err)
	}
	err := atomicfile.Write(path, func(w io.Writer) error {
		enc := gob.NewEncoder(w)
		if err := enc.Encode(&h); err != nil {
			return err
		}
		return enc.Encode(state)
	})
	if err != nil {
		return fmt.Errorf("embed: writing the checkpoint %s: %w", path, err)
	}
	return nil
}

// ReadCheckpoint reads the checkpoint at path: its header and, when state
// is not nil, the state after it into state. ok is false, with no error,
// when there is no such file.
func ReadCheckpoint(path string, state any) (h CheckpointHeader, ok bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return h, false, nil
	}
	if err != nil {
		return h, false, fmt.Errorf("embed: reading the checkpoint %s: %w", path, err)
	}
	defer f.Close()
	dec := gob.NewDecoder(f)
	if err := dec.Decode(&h); err != nil {
		return h, false, fmt.Errorf("embed: reading the checkpoint %s: %w", path, err)
	}
	if state != nil {
		if err := dec.Decode(state); err != nil {
			return h, false, fmt.Errorf("embed: reading the checkpoint %s: %w", path, err)
		}
	}
	return h, true, nil
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
