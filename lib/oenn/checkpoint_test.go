package oenn

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/internal/cutcontext"
	"github.com/oe-lab/oe/lib/triplets"
)

// TestCheckpointResumes cuts fits short and starts them again from their
// checkpoints: each result must be the uninterrupted fit's, bit for bit
// (embedding, trace, epochs, stop reason), with batches that reshuffle
// every epoch and a stopping rule that checks every 5 epochs on a subset,
// so that every part of the state counts. The fits are cut between the
// last two checks (the rule fires at a check, at epoch 25 with the
// assembly kernels and 30 with their Go twins, which round differently,
// only because the error changed little since the check before: the
// resumed fit must remember the earlier one), in four ways:
//
//   - cancelled between two epochs, or between two batches of an epoch: the
//     fit writes its state where it stops;
//   - crashed (the fit goes on, and the test takes the file it held at that
//     moment): the state written at the end of the epoch before (one batch
//     an epoch), or after the last batch but one (three batches an epoch,
//     a checkpoint after every batch).
func TestCheckpointResumes(t *testing.T) {
	prob := checkpointProblem(t)
	for _, tc := range []struct {
		name  string
		batch int
		// every is Checkpoint.Every: an hour writes only where the fit is
		// cancelled, a nanosecond after every batch.
		every time.Duration
		// within is how many of the next epoch's batches run before the
		// fit is cancelled; -1: it is not, the test copies the file.
		within int
		want   withinEpoch // where the checkpoint resumed from stands
	}{
		{"cancelled between epochs", 700, time.Hour, 0, withinEpoch{Begun: true}},
		{"cancelled within an epoch", 700, time.Hour, 2, withinEpoch{Begun: true, Batches: 2}},
		{"crashed, state of the epoch's end", 2000, time.Nanosecond, -1, withinEpoch{}},
		{"crashed, state within the epoch", 700, time.Nanosecond, -1, withinEpoch{Begun: true, Batches: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := embed.Options{Seed: 1, MaxEpochs: 60, BatchSize: tc.batch, Stop: embed.StopRule{Every: 5, SubsetSize: 500, Threshold: 0.02}}
			whole, err := (&OENN{}).Fit(context.Background(), prob, opt)
			if err != nil {
				t.Fatal(err)
			}
			if whole.StopReason != embed.StopConverged || whole.Epochs < 10 {
				t.Fatalf("the uninterrupted fit: %s after %d epochs, want converged after 10 or more", whole.StopReason, whole.Epochs)
			}
			cutAt := whole.Epochs - 3

			path := filepath.Join(t.TempDir(), "fit.ckpt")
			cut := opt
			cut.Checkpoint = &embed.Checkpoint{Path: path, ID: "run 1", Every: tc.every}
			ctx := &cutcontext.Context{Context: context.Background(), After: tc.within}
			var held []byte
			cut.Progress = func(e embed.Epoch) {
				if e.Epoch != cutAt {
					return
				}
				if tc.within >= 0 {
					ctx.Armed = true
				} else if held, err = os.ReadFile(path); err != nil {
					t.Fatal(err)
				}
			}
			_, err = (&OENN{}).Fit(ctx, prob, cut)
			if tc.within >= 0 && !errors.Is(err, context.Canceled) {
				t.Fatalf("the fit cut short: err %v, want context.Canceled", err)
			}
			if tc.within < 0 {
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, held, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var st checkpoint
			h, ok, err := embed.ReadCheckpoint(path, &st)
			if err != nil || !ok {
				t.Fatalf("no checkpoint after the fit was cut short: %v", err)
			}
			// Cancelled, the fit stands in epoch cutAt+1; crashed, the file
			// is the one it wrote before the end of epoch cutAt.
			wantEpochs := cutAt
			if tc.within < 0 {
				wantEpochs = cutAt - 1
			}
			if h.Epochs != wantEpochs || st.Within.Begun != tc.want.Begun || st.Within.Batches != tc.want.Batches {
				t.Fatalf("the checkpoint stands after %d epochs and %+v, want %d and %+v", h.Epochs, st.Within, wantEpochs, tc.want)
			}

			again := opt
			again.Checkpoint = cut.Checkpoint
			var reported []int
			again.Progress = func(e embed.Epoch) { reported = append(reported, e.Epoch) }
			resumed, err := (&OENN{}).Fit(context.Background(), prob, again)
			if err != nil {
				t.Fatal(err)
			}
			if len(reported) == 0 || reported[0] != wantEpochs+1 {
				t.Errorf("the resumed fit reported epochs %v, want them from %d", reported, wantEpochs+1)
			}
			if !mat.Equal(resumed.Embedding, whole.Embedding) {
				t.Error("the resumed fit's embedding differs from the uninterrupted fit's")
			}
			if resumed.Epochs != whole.Epochs || resumed.StopReason != whole.StopReason || len(resumed.Trace) != len(whole.Trace) {
				t.Fatalf("resumed: %d epochs, %s, trace of %d; uninterrupted: %d, %s, %d",
					resumed.Epochs, resumed.StopReason, len(resumed.Trace), whole.Epochs, whole.StopReason, len(whole.Trace))
			}
			for i, e := range resumed.Trace {
				w := whole.Trace[i]
				same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
				if e.Epoch != w.Epoch || !same(e.Loss, w.Loss) || !same(e.TrainError, w.TrainError) {
					t.Errorf("trace entry %d: resumed %+v, uninterrupted %+v", i, e, w)
				}
			}
		})
	}
}

// TestCheckpointRefusesOthers checks that a checkpoint written for another
// fit, or standing where this fit's epochs have no batch, is refused with an
// error naming the file.
func TestCheckpointRefusesOthers(t *testing.T) {
	prob := checkpointProblem(t)
	opt := embed.Options{Seed: 1, MaxEpochs: 60, BatchSize: 700}
	path := filepath.Join(t.TempDir(), "fit.ckpt")
	cut := opt
	cut.Checkpoint = &embed.Checkpoint{Path: path, ID: "run 1"}
	// Cut short in the first epoch, after its first batch.
	ctx := &cutcontext.Context{Context: context.Background(), Armed: true, After: 1}
	if _, err := (&OENN{}).Fit(ctx, prob, cut); !errors.Is(err, context.Canceled) {
		t.Fatalf("the fit cut short: err %v, want context.Canceled", err)
	}
	for _, tc := range []struct {
		name string
		id   string
		// batch is the batch size of the fit that reads the file: 2,000
		// makes an epoch one batch, which the file's state is past.
		batch int
	}{
		{"another fit", "run 2", 700},
		{"batches of another size", "run 1", 2000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			other := opt
			other.BatchSize = tc.batch
			other.Checkpoint = &embed.Checkpoint{Path: path, ID: tc.id}
			if _, err := (&OENN{}).Fit(context.Background(), prob, other); err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("err %v, want one naming %s", err, path)
			}
		})
	}
}

// TestCheckpointFailedWriteOnCancel checks that a fit cancelled where its
// checkpoint cannot be written (its folder has become a file since the fit
// looked for one to resume from) ends cut short, not failed, with an error
// that names the file.
func TestCheckpointFailedWriteOnCancel(t *testing.T) {
	prob := checkpointProblem(t)
	folder := filepath.Join(t.TempDir(), "checkpoints")
	path := filepath.Join(folder, "fit.ckpt")
	opt := embed.Options{Seed: 1, MaxEpochs: 60, BatchSize: 700, Checkpoint: &embed.Checkpoint{Path: path, ID: "run 1", Every: time.Hour}}
	ctx := &cutcontext.Context{Context: context.Background(), Armed: true, After: 1, OnCut: func() {
		if err := os.WriteFile(folder, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}}
	_, err := (&OENN{}).Fit(ctx, prob, opt)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), path) {
		t.Errorf("err %v, want context.Canceled and an error naming %s", err, path)
	}
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
