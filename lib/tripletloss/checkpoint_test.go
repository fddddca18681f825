package tripletloss

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/internal/resumetest"
	"github.com/oe-lab/oe/lib/internal/testpoints"
	"github.com/oe-lab/oe/lib/triplets"
)

// checkpointProblem is the checkpoint tests' problem: the paper's
// 2·n·d·log₂n = 4,338 triplets of 150 uniform points in 2D, embedded in 2:
// batches of 1,500 make three an epoch.
func checkpointProblem(t *testing.T) embed.Problem {
	t.Helper()
	return embed.Problem{Dim: 2, Train: mustTriplets(t, testpoints.Uniform(150, 2, 21), triplets.Count(2, 150, 2), 1)}
}

// checkpointFit is alg's fit of the checkpoint tests' problem on two
// threads, checking every 5 epochs on a subset, so that the rule's memory
// of the check before is part of the state a resumed fit needs.
func checkpointFit(t *testing.T, alg embed.Algorithm) resumetest.Fit {
	t.Helper()
	return resumetest.Fit{
		Alg:     alg,
		Problem: checkpointProblem(t),
		Options: embed.Options{Seed: 1, Threads: 2, MaxEpochs: 200, Stop: embed.StopRule{Every: 5, SubsetSize: 500, Threshold: 0.005}},
		Before:  2,
		Where:   resumetest.Where(func(st *checkpoint) any { return st.Batches }),
	}
}

// TestCheckpointResumes cuts fits of each method short, two epochs before
// the rule fires, in the four ways of resumetest.BatchCuts, and starts them
// again from their checkpoints: each result must be the uninterrupted
// fit's, bit for bit. CKL-x started from SOE's embedding resumes without
// fitting SOE again, to the same result.
func TestCheckpointResumes(t *testing.T) {
	for _, alg := range []embed.Algorithm{&SOE{}, &STE{}, &TSTE{}, &CKLX{}, &CKLX{StartFromSOE: true}, &GNMDSX{Lambda: 0.01}} {
		name := alg.Name()
		if c, ok := alg.(*CKLX); ok && c.StartFromSOE {
			name += " from SOE"
		}
		t.Run(name, func(t *testing.T) { checkpointFit(t, alg).Resumes(t, resumetest.BatchCuts(1500)) })
	}
}

// TestCheckpointRefusesOthers checks that a checkpoint written after the
// first two batches of a fit is refused by another fit, one with batches of
// 2,500 (two an epoch, which the file's state is past), and one in another
// dimension (whose rows the kernel pads to the same stride).
func TestCheckpointRefusesOthers(t *testing.T) {
	checkpointFit(t, &STE{}).RefusesOthers(t, 1500, 2, []resumetest.Other{
		{Name: "another fit", ID: "run 2", Batch: 1500},
		{Name: "batches of another size", ID: "run 1", Batch: 2500},
		{Name: "another dimension", ID: "run 1", Batch: 1500, Dim: 3},
	})
}

// TestCheckpointFailedWriteOnCancel checks that a t-STE fit cancelled
// where its checkpoint cannot be written ends cut short, not failed.
func TestCheckpointFailedWriteOnCancel(t *testing.T) {
	checkpointFit(t, &TSTE{}).FailedWriteOnCancel(t, 1500)
}

// TestCheckpointLBFGSKeepsNone checks that an L-BFGS fit, which does not
// resume (its line search's memory is not kept), writes no checkpoint, even
// when it is cancelled, and runs from its start when given one.
func TestCheckpointLBFGSKeepsNone(t *testing.T) {
	f := checkpointFit(t, &SOE{})
	path := filepath.Join(t.TempDir(), "fit.ckpt")
	opt := f.Options
	opt.Optimizer = embed.OptimizerLBFGS
	opt.Checkpoint = &embed.Checkpoint{Path: path, ID: "run 1", Every: time.Nanosecond}
	if _, err := f.Alg.Fit(context.Background(), f.Problem, opt); err != nil {
		t.Fatal(err)
	}
	ctx := &resumetest.Context{Context: context.Background(), Armed: true}
	if _, err := f.Alg.Fit(ctx, f.Problem, opt); err == nil {
		t.Error("a cancelled L-BFGS fit returned no error")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("an L-BFGS fit left %s (stat: %v), want no checkpoint", path, err)
	}
}

// BenchmarkCheckpoint writes and reads back (one op) the checkpoint of a
// t-STE fit at MNIST's paper size, 60,000 items in d = 50, after one Adam
// step: 48 MB of embedding and moments, and a trace of 150 epochs.
func BenchmarkCheckpoint(b *testing.B) {
	const n, d = 60_000, 50
	r, err := (&TSTE{}).resolve(d)
	if err != nil {
		b.Fatal(err)
	}
	k, _, err := benchKernel(r, n, d, 1000, 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := k.step(syntheticTriplets(n, 1000, 1)); err != nil {
		b.Fatal(err)
	}
	tr := &cpuTrainer{k: k}
	res := &embed.Result{Trace: make([]embed.Epoch, 150)}
	tracker := embed.NewTracker(embed.StopRule{}.OrDefault())
	cp := &embed.Checkpoint{Path: filepath.Join(b.TempDir(), "fit.ckpt"), ID: "run 1"}
	for b.Loop() {
		if err := tr.saveCheckpoint(cp, 150, 3, 0, tracker, res, time.Hour); err != nil {
			b.Fatal(err)
		}
		h, st, ok, err := r.loadCheckpoint(cp, n, d, 66, 1000)
		if err != nil || !ok {
			b.Fatal(ok, err)
		}
		if err := st.restore(cp.Path, r.name, tr); err != nil || h.Epochs != 150 {
			b.Fatal(h.Epochs, err)
		}
	}
}
