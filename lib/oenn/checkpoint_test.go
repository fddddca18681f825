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
	"github.com/oe-lab/oe/lib/triplets"
)

// TestCheckpointResumes cuts a fit short between the last two checks of
// its stopping rule and starts it again from its checkpoint: the result must be the uninterrupted fit's,
// bit for bit (embedding, trace, epochs, stop reason), with batches that
// reshuffle every epoch and a stopping rule that checks every 5 epochs on a
// subset, so that every part of the state counts.
func TestCheckpointResumes(t *testing.T) {
	x := uniform(60, 3, 11)
	train, err := triplets.Random(x, 2000, triplets.Noise{}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	prob := embed.Problem{Dim: 3, Train: train}
	opt := embed.Options{Seed: 1, MaxEpochs: 60, BatchSize: 700, Stop: embed.StopRule{Every: 5, SubsetSize: 500, Threshold: 0.02}}
	whole, err := (&OENN{}).Fit(context.Background(), prob, opt)
	if err != nil {
		t.Fatal(err)
	}
	// The rule fires at a check (epoch 25 with the assembly kernels, 30
	// with their Go twins, which round differently) only because the error
	// changed little since the check before: the fit is cut between the two,
	// so the resumed fit must remember the earlier one.
	if whole.StopReason != embed.StopConverged || whole.Epochs < 10 {
		t.Fatalf("the uninterrupted fit: %s after %d epochs, want converged after 10 or more", whole.StopReason, whole.Epochs)
	}
	cutAt := whole.Epochs - 3

	path := filepath.Join(t.TempDir(), "fit.ckpt")
	cut := opt
	cut.Checkpoint = &embed.Checkpoint{Path: path, ID: "run 1", Every: time.Nanosecond}
	ctx, cancel := context.WithCancel(context.Background())
	cut.Progress = func(e embed.Epoch) {
		if e.Epoch == cutAt {
			cancel()
		}
	}
	if _, err := (&OENN{}).Fit(ctx, prob, cut); !errors.Is(err, context.Canceled) {
		t.Fatalf("the fit cut short: err %v, want context.Canceled", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no checkpoint after the fit was cut short: %v", err)
	}

	again := opt
	again.Checkpoint = cut.Checkpoint
	var reported []int
	again.Progress = func(e embed.Epoch) { reported = append(reported, e.Epoch) }
	resumed, err := (&OENN{}).Fit(context.Background(), prob, again)
	if err != nil {
		t.Fatal(err)
	}
	if len(reported) == 0 || reported[0] != cutAt+1 {
		t.Errorf("the resumed fit reported epochs %v, want them from %d", reported, cutAt+1)
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

	// A file of another fit is refused, naming it.
	other := opt
	other.Checkpoint = &embed.Checkpoint{Path: path, ID: "run 2"}
	if _, err := (&OENN{}).Fit(context.Background(), prob, other); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a checkpoint of another fit: err %v, want one naming %s", err, path)
	}
}
