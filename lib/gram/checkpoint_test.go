package gram

import (
	"testing"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/internal/resumetest"
	"github.com/oe-lab/oe/lib/internal/testpoints"
)

// checkpointProblem is the checkpoint tests' problem: the paper's
// 2·n·d·log₂n = 4,338 triplets of 150 uniform points in 2D, embedded in 2:
// batches of 1,500 make three an epoch.
func checkpointProblem(t *testing.T) embed.Problem {
	t.Helper()
	p, _ := problem(t, testpoints.Uniform(150, 2, 21), 2)
	return p
}

// checkpointFit is method's fit of the checkpoint tests' problem, checking
// every 5 epochs on a subset, so that the rule's memory of the check
// before is part of the state a resumed fit needs.
func checkpointFit(t *testing.T, method string) resumetest.Fit {
	t.Helper()
	alg, err := embed.New(method, nil)
	if err != nil {
		t.Fatal(err)
	}
	return resumetest.Fit{
		Alg:     alg,
		Problem: checkpointProblem(t),
		Options: embed.Options{Seed: 1, MaxEpochs: 60, Stop: embed.StopRule{Every: 5, SubsetSize: 500, Threshold: 0.02}},
		Before:  2,
		Where:   resumetest.Where(func(st *checkpoint) any { return st.Batches }),
	}
}

// TestCheckpointResumes cuts GNMDS and CKL fits short, two epochs before
// the rule fires, in the four ways of resumetest.BatchCuts, and starts them
// again from their checkpoints: each result must be the uninterrupted
// fit's, bit for bit.
func TestCheckpointResumes(t *testing.T) {
	for _, method := range []string{"gnmds", "ckl"} {
		t.Run(method, func(t *testing.T) { checkpointFit(t, method).Resumes(t, resumetest.BatchCuts(1500)) })
	}
}

// TestCheckpointRefusesOthers checks that a checkpoint written after the
// first two batches of a fit is refused by another fit, one with batches of
// 2,500 (two an epoch, which the file's state is past), and one in another
// dimension.
func TestCheckpointRefusesOthers(t *testing.T) {
	checkpointFit(t, "gnmds").RefusesOthers(t, 1500, 2, []resumetest.Other{
		{Name: "another fit", ID: "run 2", Batch: 1500},
		{Name: "batches of another size", ID: "run 1", Batch: 2500},
		{Name: "another dimension", ID: "run 1", Batch: 1500, Dim: 3},
	})
}

// TestCheckpointFailedWriteOnCancel checks that a CKL fit cancelled where
// its checkpoint cannot be written ends cut short, not failed.
func TestCheckpointFailedWriteOnCancel(t *testing.T) {
	checkpointFit(t, "ckl").FailedWriteOnCancel(t, 1500)
}
