package embed

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/param"
	"github.com/oe-lab/oe/lib/triplets"
)

// Problem is what an algorithm is asked to embed.
type Problem struct {
	// N is the number of items. When zero, Train.N is used.
	N int
	// Dim is the embedding dimension d.
	Dim int
	// Train holds the training triplets of passive methods.
	Train *triplets.Set
	// Oracle answers triplet queries for active methods.
	Oracle *triplets.Oracle
}

// Items returns the number of items of the problem.
func (p Problem) Items() int {
	if p.N > 0 {
		return p.N
	}
	if p.Train != nil {
		return p.Train.N
	}
	if p.Oracle != nil {
		return p.Oracle.N()
	}
	return 0
}

// Check validates the parts of the problem that every method needs, and
// holds its size to the memory limit (CheckMemory) with the least working
// state any method needs, so that a problem of far more items than memory
// fails with an error rather than the process. Passive methods call it with
// needTriplets true, active ones with false.
func (p Problem) Check(needTriplets bool) error {
	if p.Dim < 1 {
		return fmt.Errorf("embed: embedding dimension must be ≥ 1, got %d", p.Dim)
	}
	if needTriplets {
		if p.Train == nil || p.Train.Len() == 0 {
			return errors.New("embed: empty training triplet set")
		}
		if p.N > 0 && p.N < p.Train.N {
			return fmt.Errorf("embed: n=%d is smaller than the triplet set's %d items", p.N, p.Train.N)
		}
		if err := p.Train.Validate(); err != nil {
			return err
		}
		return CheckMemory("embed", p.Items(), p.Train.Len(), p.Dim, floorBytes(p.Items(), p.Train.Len(), p.Dim))
	}
	if p.Oracle == nil {
		return errors.New("embed: active method needs an oracle")
	}
	return CheckMemory("embed", p.Items(), 0, p.Dim, floorBytes(p.Items(), 0, p.Dim))
}

// Options are the settings shared by every algorithm. Zero values mean the
// paper's defaults for the method.
type Options struct {
	// Seed makes a run reproducible: same seed and problem, same result on
	// CPU, whatever Threads is (lib/algorithms' TestResultIndependentOfThreads).
	Seed uint64
	// MaxEpochs caps the number of epochs (0: the method's default).
	MaxEpochs int
	// LearningRate overrides the method's default learning rate when > 0.
	LearningRate float64
	// BatchSize overrides the default batch size when > 0.
	BatchSize int
	// Threads is the number of worker goroutines (0: GOMAXPROCS).
	Threads int
	// Backend is where the method runs: BackendCPU (or ""), BackendCUDA
	// ("gpu" is accepted as an alias) or BackendAuto. A method without a
	// GPU implementation given BackendCUDA fails with NotSupported; a GPU
	// run is not bit-for-bit reproducible (its gradient sums use atomic
	// additions in no fixed order).
	Backend Backend
	// Optimizer is the optimiser, among those the method's Info lists
	// (Optimizers); "" means its default. An optimiser without a GPU path
	// (L-BFGS) given BackendCUDA fails with NotSupported.
	Optimizer Optimizer
	// Stop is the stopping rule; the zero value means DefaultStopRule().
	Stop StopRule
	// Progress, when set, is called after every epoch with its trace entry.
	Progress func(Epoch)
	// Checkpoint, when set, keeps the fit's state in a file to resume from
	// (methods whose Info says Resumable, on the CPU; see Checkpoint).
	Checkpoint *Checkpoint
}

// LR returns LearningRate if set, else def. It rejects non-finite or
// non-positive rates.
func (o Options) LR(def float64) (float64, error) {
	lr := def
	if o.LearningRate != 0 {
		lr = o.LearningRate
	}
	if err := param.Positive("embed", "learning rate", lr); err != nil {
		return 0, err
	}
	return lr, nil
}

// Epoch is one entry of a run's trace.
type Epoch struct {
	Epoch int
	// Loss is the method's objective averaged over the epoch's triplets.
	Loss float64
	// TrainError is the triplet error on the stopping rule's subset of the
	// training triplets; NaN on epochs where it was not measured.
	TrainError float64
	// Elapsed is the wall time since the start of Fit.
	Elapsed time.Duration
}

// StopReason says why a fit stopped. The spellings are those stored in
// results.db.
type StopReason string

// Stop reasons reported in Result.StopReason.
const (
	// StopConverged: the stopping rule fired.
	StopConverged StopReason = "converged"
	// StopMaxEpochs: the fit ran its maximum number of epochs.
	StopMaxEpochs StopReason = "max-epochs"
	// StopDone: a non-iterative method finished.
	StopDone StopReason = "done"
	// StopCanceled: the context was canceled.
	StopCanceled StopReason = "canceled"
)

// String returns the stop reason's name.
func (r StopReason) String() string { return string(r) }

// Result is what Fit returns.
type Result struct {
	// Embedding is n×d, one row per item.
	Embedding *mat.Dense
	// Trace has one entry per epoch (empty for non-iterative methods).
	Trace []Epoch
	// Epochs is the number of epochs run.
	Epochs int
	// StopReason is one of the Stop* constants.
	StopReason StopReason
	// Elapsed is the wall time of Fit.
	Elapsed time.Duration
	// TimeToConverge is the paper's reported time: the time until the last
	// stopping-rule check at which the train error improved by more than the
	// threshold. Equal to Elapsed where the method has no such rule.
	TimeToConverge time.Duration
	// Queries is the number of oracle queries an active method made.
	Queries int64
}

// Record appends e to the trace, counts it in Epochs and reports it to
// progress when that is set: the bookkeeping every iterative method does at
// the end of an epoch.
func (r *Result) Record(e Epoch, progress func(Epoch)) {
	r.Trace = append(r.Trace, e)
	r.Epochs = e.Epoch
	if progress != nil {
		progress(e)
	}
}

// Algorithm is an ordinal embedding method.
type Algorithm interface {
	// Name is the registry name, e.g. "soe".
	Name() string
	// Fit learns an embedding of the problem's items.
	Fit(ctx context.Context, p Problem, opt Options) (*Result, error)
}

// ErrDiverged is wrapped by the error a run returns when its loss or
// embedding becomes NaN or Inf.
var ErrDiverged = errors.New("diverged (NaN or Inf)")

// Diverged returns an error naming the epoch at which a run diverged.
func Diverged(method string, epoch int) error {
	return fmt.Errorf("%s: epoch %d: %w", method, epoch, ErrDiverged)
}
