package oenn

import (
	"testing"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/internal/resumetest"
	"github.com/oe-lab/oe/lib/triplets"
)

// checkpointFit is OENN's fit of the checkpoint tests' problem, with a
// stopping rule that checks every 5 epochs on a subset, so that the rule's
// memory of the check before is part of the state a resumed fit needs.
// Batches reshuffle every epoch, so that the shuffle is part of it too.
func checkpointFit(t *testing.T) resumetest.Fit {
	t.Helper()
	return resumetest.Fit{
		Alg:     &OENN{},
		Problem: checkpointProblem(t),
		Options: embed.Options{Seed: 1, MaxEpochs: 60, Stop: embed.StopRule{Every: 5, SubsetSize: 500, Threshold: 0.02}},
		// Between the last two checks: the rule fires at a check (epoch 25
		// with the assembly kernels, 30 with their Go twins, which round
		// differently) only because the error changed little since the
		// check before, so the resumed fit must remember the earlier one.
		Before: 3,
		Where: resumetest.Where(func(st *checkpoint) any {
			return stands{Begun: st.Within.Begun, Batches: st.Within.Batches}
		}),
	}
}

// stands is where in its epoch a checkpoint stands: whether the epoch's
// shuffle is done, and how many of its batches.
type stands struct {
	Begun   bool
	Batches int
}

// TestCheckpointResumes cuts fits short between the rule's last two checks
// and starts them again from their checkpoints: each result must be the
// uninterrupted fit's, bit for bit. They are cut in four ways: cancelled
// between two epochs, or between two batches of an epoch (the fit writes
// its state where it stops); crashed, from the state written at the end of
// the epoch before (one batch an epoch), or after the last batch but one
// (three batches an epoch, a checkpoint after every batch).
func TestCheckpointResumes(t *testing.T) {
	checkpointFit(t).Resumes(t, []resumetest.Cut{
		{Name: "cancelled between epochs", Batch: 700, Every: time.Hour, After: 0, Within: stands{Begun: true}},
		{Name: "cancelled within an epoch", Batch: 700, Every: time.Hour, After: 2, Within: stands{Begun: true, Batches: 2}},
		{Name: "crashed, state of the epoch's end", Batch: 2000, Every: time.Nanosecond, After: -1, Within: stands{}},
		{Name: "crashed, state within the epoch", Batch: 700, Every: time.Nanosecond, After: -1, Within: stands{Begun: true, Batches: 2}},
	})
}

// TestCheckpointRefusesOthers checks that a checkpoint written after the
// first batch of a fit is refused by another fit, and by one with batches of
// 2,000 (one an epoch, which the file's state is past).
func TestCheckpointRefusesOthers(t *testing.T) {
	checkpointFit(t).RefusesOthers(t, 700, 1, []resumetest.Other{
		{Name: "another fit", ID: "run 2", Batch: 700},
		{Name: "batches of another size", ID: "run 1", Batch: 2000},
	})
}

// TestCheckpointFailedWriteOnCancel checks that a fit cancelled where its
// checkpoint cannot be written ends cut short, not failed.
func TestCheckpointFailedWriteOnCancel(t *testing.T) {
	checkpointFit(t).FailedWriteOnCancel(t, 700)
}

// checkpointProblem is the checkpoint tests' problem: 2,000 triplets of 60
// points in 3 dimensions, embedded in 3.
func checkpointProblem(t *testing.T) embed.Problem {
	t.Helper()
	train, err := triplets.Random(uniform(60, 3, 11), 2000, triplets.Noise{}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	return embed.Problem{Dim: 3, Train: train}
}
