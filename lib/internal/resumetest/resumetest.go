package resumetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
)

// Fit is a resumable method's fit under test.
type Fit struct {
	Alg     embed.Algorithm
	Problem embed.Problem
	// Options are the fit's options but for BatchSize and Checkpoint, which
	// each check sets. Resumes wants a stopping rule that fires (the
	// uninterrupted fit must converge after 10 epochs or more) and checks
	// on a subset every few epochs, so that the rule's memory of the check
	// before is part of the state a resumed fit needs.
	Options embed.Options
	// Before is how many epochs before the uninterrupted fit's last the
	// fits of Resumes are cut (2 or more: a crash takes the file of the
	// epoch before).
	Before int
	// Where reads the method's checkpoint at path: the epochs its header
	// says are done, and where the state stands within the next epoch,
	// which Resumes compares to Cut.Within (reflect.DeepEqual).
	Where func(path string) (epochs int, within any, err error)
}

// BatchCuts are the four ways of cutting short a fit whose checkpoint
// stands after a count of its epoch's batches (which Where reports), on a
// problem that batch cuts into three batches an epoch: cancelled between
// two epochs, or after two batches of one (the fit writes its state where
// it stops); crashed, from the state written at the end of the epoch
// before (one batch an epoch), or after the last batch but one (a
// checkpoint after every batch).
func BatchCuts(batch int) []Cut {
	return []Cut{
		{Name: "cancelled between epochs", Batch: batch, Every: time.Hour, After: 0, Within: 0},
		{Name: "cancelled within an epoch", Batch: batch, Every: time.Hour, After: 2, Within: 2},
		{Name: "crashed, state of the epoch's end", Batch: 0, Every: time.Nanosecond, After: -1, Within: 0},
		{Name: "crashed, state within the epoch", Batch: batch, Every: time.Nanosecond, After: -1, Within: 2},
	}
}

// Where returns a Fit.Where for a method whose checkpoint holds a state of
// type S after its header: it reads the file's state into a new S and
// reports within of it; a missing file is an error.
func Where[S any](within func(*S) any) func(path string) (int, any, error) {
	return func(path string) (int, any, error) {
		var st S
		h, ok, err := embed.ReadCheckpoint(path, &st)
		if err == nil && !ok {
			err = fmt.Errorf("%s: no checkpoint", path)
		}
		return h.Epochs, within(&st), err
	}
}

// Cut is one way of cutting a fit short.
type Cut struct {
	Name string
	// Batch is the fit's batch size (0: one batch an epoch).
	Batch int
	// Every is Checkpoint.Every: an hour writes only where the fit is
	// cancelled, a nanosecond after every batch.
	Every time.Duration
	// After is how many of the next epoch's batches run before the fit is
	// cancelled; -1: it is not, it runs to its end, and the test takes the
	// file it held at the end of the cut epoch, as a crash would leave it.
	After int
	// Within is where the checkpoint stands within its epoch, as Where
	// reports it.
	Within any
}

// Resumes runs each cut as a subtest: the uninterrupted fit, the fit cut
// short Before epochs before its end, and the fit resumed from the
// checkpoint, which must be the uninterrupted one bit for bit (embedding,
// trace, epochs, stop reason) and report its epochs from where the
// checkpoint stood.
func (f Fit) Resumes(t *testing.T, cuts []Cut) {
	t.Helper()
	for _, c := range cuts {
		t.Run(c.Name, func(t *testing.T) { f.resumes(t, c) })
	}
}

func (f Fit) resumes(t *testing.T, c Cut) {
	opt := f.Options
	opt.BatchSize = c.Batch
	whole, err := f.Alg.Fit(context.Background(), f.Problem, opt)
	if err != nil {
		t.Fatal(err)
	}
	if whole.StopReason != embed.StopConverged || whole.Epochs < 10 {
		t.Fatalf("the uninterrupted fit: %s after %d epochs, want converged after 10 or more", whole.StopReason, whole.Epochs)
	}
	cutAt := whole.Epochs - f.Before

	path := filepath.Join(t.TempDir(), "fit.ckpt")
	cut := opt
	cut.Checkpoint = &embed.Checkpoint{Path: path, ID: "run 1", Every: c.Every}
	ctx := &Context{Context: context.Background(), After: c.After}
	var held []byte
	var heldErr error
	cut.Progress = func(e embed.Epoch) {
		if e.Epoch != cutAt {
			return
		}
		if c.After >= 0 {
			ctx.Armed = true
		} else {
			held, heldErr = os.ReadFile(path)
		}
	}
	_, err = f.Alg.Fit(ctx, f.Problem, cut)
	if c.After >= 0 && !errors.Is(err, context.Canceled) {
		t.Fatalf("the fit cut short: err %v, want context.Canceled", err)
	}
	// Cancelled, the fit stands in epoch cutAt+1; crashed, the file is the
	// one it wrote before the end of epoch cutAt.
	wantEpochs := cutAt
	if c.After < 0 {
		if err != nil {
			t.Fatal(err)
		}
		if heldErr != nil {
			t.Fatalf("no checkpoint at the end of epoch %d: %v", cutAt, heldErr)
		}
		if err := os.WriteFile(path, held, 0o644); err != nil {
			t.Fatal(err)
		}
		wantEpochs = cutAt - 1
	}
	epochs, within, err := f.Where(path)
	if err != nil {
		t.Fatalf("no checkpoint after the fit was cut short: %v", err)
	}
	if epochs != wantEpochs || !reflect.DeepEqual(within, c.Within) {
		t.Fatalf("the checkpoint stands after %d epochs and %+v, want %d and %+v", epochs, within, wantEpochs, c.Within)
	}

	again := opt
	again.Checkpoint = cut.Checkpoint
	var reported []int
	again.Progress = func(e embed.Epoch) { reported = append(reported, e.Epoch) }
	resumed, err := f.Alg.Fit(context.Background(), f.Problem, again)
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
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for i, e := range resumed.Trace {
		w := whole.Trace[i]
		if e.Epoch != w.Epoch || !same(e.Loss, w.Loss) || !same(e.TrainError, w.TrainError) {
			t.Errorf("trace entry %d: resumed %+v, uninterrupted %+v", i, e, w)
		}
	}
}

// Other is a fit that must refuse a checkpoint written by another.
type Other struct {
	Name string
	// ID is the reading fit's Checkpoint.ID.
	ID string
	// Batch is the reading fit's batch size.
	Batch int
	// Dim, where not 0, is the reading fit's embedding dimension.
	Dim int
}

// RefusesOthers cuts the fit short in its first epoch after after batches
// of size batch, with the checkpoint ID "run 1", and checks, as a subtest
// for each other fit, that it refuses the file with an error naming it.
func (f Fit) RefusesOthers(t *testing.T, batch, after int, others []Other) {
	t.Helper()
	opt := f.Options
	opt.BatchSize = batch
	path := filepath.Join(t.TempDir(), "fit.ckpt")
	cut := opt
	cut.Checkpoint = &embed.Checkpoint{Path: path, ID: "run 1"}
	ctx := &Context{Context: context.Background(), Armed: true, After: after}
	if _, err := f.Alg.Fit(ctx, f.Problem, cut); !errors.Is(err, context.Canceled) {
		t.Fatalf("the fit cut short: err %v, want context.Canceled", err)
	}
	for _, o := range others {
		t.Run(o.Name, func(t *testing.T) {
			other, p := opt, f.Problem
			other.BatchSize = o.Batch
			other.Checkpoint = &embed.Checkpoint{Path: path, ID: o.ID}
			if o.Dim != 0 {
				p.Dim = o.Dim
			}
			if _, err := f.Alg.Fit(context.Background(), p, other); err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("err %v, want one naming %s", err, path)
			}
		})
	}
}

// FailedWriteOnCancel cancels the fit (batches of size batch) after its
// first batch, where its checkpoint cannot be written (its folder has
// become a file since the fit looked for one to resume from), and checks
// that it ends cut short, not failed: a result that says so, and
// context.Canceled with an error naming the file.
func (f Fit) FailedWriteOnCancel(t *testing.T, batch int) {
	t.Helper()
	folder := filepath.Join(t.TempDir(), "checkpoints")
	path := filepath.Join(folder, "fit.ckpt")
	opt := f.Options
	opt.BatchSize = batch
	opt.Checkpoint = &embed.Checkpoint{Path: path, ID: "run 1", Every: time.Hour}
	var blockErr error
	ctx := &Context{Context: context.Background(), Armed: true, After: 1, OnCut: func() {
		blockErr = os.WriteFile(folder, nil, 0o644)
	}}
	res, err := f.Alg.Fit(ctx, f.Problem, opt)
	if blockErr != nil {
		t.Fatal(blockErr)
	}
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), path) || res == nil || res.StopReason != embed.StopCanceled {
		t.Errorf("result %v, err %v; want a fit cut short, context.Canceled and an error naming %s", res, err, path)
	}
}
