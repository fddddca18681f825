package execute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/hostinfo"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/progress"
	"github.com/oe-lab/oe/runner/store"
)

// EvalFunc computes one run on the given number of threads.
type EvalFunc func(ctx context.Context, c job.Config, threads int) (*job.Outcome, error)

// Executor runs batches of jobs against a store.
type Executor struct {
	Store *store.Store
	// Experiment names the script the runs belong to, on the progress bar.
	// (Which runs a script declared is recorded when it completes: see
	// store.RecordExecution.)
	Experiment string
	// Jobs is the number of runs executed at once (≤ 0: one per CPU).
	Jobs int
	// Threads is the number of threads each run uses (≤ 0: the CPUs divided
	// among the jobs, at least one).
	Threads int
	// RetryFailed executes runs stored as failed again.
	RetryFailed bool
	// Eval computes a run.
	Eval EvalFunc
	// Runnable, when set, says why this machine cannot execute a run (nil:
	// it can), such as a run on the cuda backend where no GPU answers. Such
	// a run is neither executed nor stored: it stays missing, for a machine
	// that can (its shard folded in with oerun merge), and counts as
	// Elsewhere.
	Runnable func(job.Config) error
	// Host is recorded with every run.
	Host hostinfo.Host
	// Progress receives the progress bar (nil: none).
	Progress io.Writer
	// Checkpoints, when set, is the folder where the runs of resumable
	// methods (embed.Info.Resumable) on the CPU keep their fit's state, a
	// file named by the run's key (embed.Checkpoint): a run cut short (a
	// budget's end, a cluster job's time limit) goes on from there when it
	// is executed again, with the same result. The file is removed once
	// the run is stored. Under a deadline such a run starts even where its
	// Cost exceeds the time left, since what it computes is kept.
	Checkpoints string
	// CheckpointEvery is the least time between two writes of a checkpoint
	// (0: embed.DefaultCheckpointEvery): what a run killed without warning
	// (a crash, SIGKILL) loses at most; a run cancelled (a budget's end,
	// SIGTERM at a cluster job's time limit) writes its state as it stops.
	// A cluster whose jobs die often wants it shorter.
	CheckpointEvery time.Duration
	// WholeRuns, under a deadline, starts only runs expected to finish
	// before it, resumable ones too, for a machine whose checkpoints will
	// not outlive the deadline (a fresh virtual machine each session): the
	// time a cut run would compute goes to runs that finish. A run begun
	// before still goes on from its checkpoint, its Cost what is left.
	WholeRuns bool
	// Defer, when set, receives the runs Execute would execute (missing
	// from the store, or failed with RetryFailed), in order, and Execute
	// executes none of them: a declare-only execution of a script (see
	// runner.Declare) collects its runs so. Deferred runs count neither as
	// cached nor as run.
	Defer func([]Pending)
}

// Pending is a run to execute: its job, the experiment that declared it, the
// evaluation that computes it and how long that is expected to take.
type Pending struct {
	Job        job.Canonical
	Experiment string
	Eval       EvalFunc
	// Cost is the run's estimated duration (0: unknown); ExecutePending
	// does not start a run that would not finish before ctx's deadline,
	// unless it keeps a checkpoint (Executor.Checkpoints).
	Cost time.Duration
	// Keep says what is stored of the run's embedding and labels (up to the
	// store's MaxEmbedding): nothing (they are dropped once measured), the
	// view View computes of them, or all of them. A script declares the
	// runs whose embedding its report draws (runner/exp's
	// Run.KeepEmbedding). A view that cannot be computed keeps the
	// embedding itself, so that the report says why it draws none.
	Keep Keep
	View ViewFunc
}

// Summary counts what Execute did.
type Summary struct {
	// Cached runs were already stored (ok, or failed without RetryFailed).
	Cached int
	// Ran runs were executed now; Failed of them failed.
	Ran, Failed int
	// Elsewhere runs are missing and this machine cannot execute them
	// (Executor.Runnable): they were left for another.
	Elsewhere int
}

// String reads like "12 cached, 3 run (1 failed), 2 left for another
// machine".
func (s Summary) String() string {
	out := fmt.Sprintf("%d cached, %d run", s.Cached, s.Ran)
	if s.Failed > 0 {
		out += fmt.Sprintf(" (%d failed)", s.Failed)
	}
	if s.Elsewhere > 0 {
		out += fmt.Sprintf(", %d left for another machine", s.Elsewhere)
	}
	return out
}

// Add returns the sum of two summaries.
func (s Summary) Add(o Summary) Summary {
	return Summary{Cached: s.Cached + o.Cached, Ran: s.Ran + o.Ran, Failed: s.Failed + o.Failed, Elsewhere: s.Elsewhere + o.Elsewhere}
}

// Execute makes sure every run is stored: runs whose key is missing (or
// failed, with RetryFailed) are executed, or handed to x.Defer. A run's
// Experiment and Eval, when not set, are x's. Duplicate keys run once. It
// returns an error only when the store fails or ctx is cancelled; failures
// of runs are recorded instead.
func (x *Executor) Execute(ctx context.Context, runs []Pending) (Summary, error) {
	runs = slices.Clone(runs)
	for i := range runs {
		if runs[i].Experiment == "" {
			runs[i].Experiment = x.Experiment
		}
		if runs[i].Eval == nil {
			runs[i].Eval = x.Eval
		}
		if runs[i].Eval == nil {
			return Summary{}, errors.New("execute: no evaluation function")
		}
	}
	if x.Defer == nil {
		return x.ExecutePending(ctx, runs)
	}
	todo, sum, err := x.missing(ctx, runs)
	if err != nil {
		return sum, err
	}
	x.Defer(todo)
	return sum, nil
}

// ExecutePending executes the runs that are missing from the store (or
// failed, with RetryFailed), each with its own Eval, starting them in the
// order given; a key given twice runs once. Runs this machine cannot
// execute (Runnable) are skipped and counted as Elsewhere. When ctx has a
// deadline, it starts no run whose Cost exceeds the time left when a
// worker comes free for it (give them cheapest first to make the most of a
// budget), except one that keeps a checkpoint (Checkpoints, unless
// WholeRuns) while at least minResumeSlice is left, and leaves a run
// without one that could finish only with less than costMargin to spare to
// a resumable run after it (see fits); runs still in flight at the
// deadline are cancelled and left missing, like every run cut short, those
// with a checkpoint to go on from it. Errors are Execute's.
func (x *Executor) ExecutePending(ctx context.Context, runs []Pending) (Summary, error) {
	for _, r := range runs {
		if r.Eval == nil {
			return Summary{}, fmt.Errorf("execute: run %.12s has no evaluation function", r.Job.Key)
		}
		if r.Keep == KeepView && r.View == nil {
			return Summary{}, fmt.Errorf("execute: run %.12s keeps its view but has no view function", r.Job.Key)
		}
	}
	todo, sum, err := x.missing(ctx, runs)
	if err != nil {
		return sum, err
	}
	if x.Runnable != nil {
		var here []Pending
		for _, p := range todo {
			if x.Runnable(p.Job.Config) == nil {
				here = append(here, p)
			}
		}
		sum.Elsewhere, todo = len(todo)-len(here), here
	}
	jobsN, threads := x.parallelism()
	workers := min(jobsN, max(1, len(todo)))
	var bar *progress.Bar
	if x.Progress != nil && sum.Cached+len(todo) > 0 {
		bar = progress.New(x.Progress, x.Experiment, sum.Cached+len(todo))
		// The deadline and the estimates first: in a log the first line is
		// drawn at once, the next only 30 seconds later.
		if deadline, ok := ctx.Deadline(); ok {
			bar.Until(deadline)
		}
		if cost, known := totalCost(todo); known {
			bar.Expect(cost, workers)
		}
		bar.Cached(sum.Cached)
		defer bar.Finish()
	}
	ch := make(chan Pending)
	// A token per idle worker: the feed takes one before it judges whether
	// the next run fits the time left, so that it judges at the run's
	// start, not when the previous run started (with one worker, a run's
	// whole length earlier: a run started after its time had run out).
	idle := make(chan struct{}, workers)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		idle <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range ch {
				// A run not stored was cancelled: it is left for the next time.
				if rec, stored := x.runOne(ctx, p, threads); stored {
					err := x.Store.Put(context.WithoutCancel(ctx), rec)
					if cp := x.checkpoint(p.Job); err == nil && cp != nil {
						// The run is stored: its fit will not be resumed.
						if rerr := os.Remove(cp.Path); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
							err = fmt.Errorf("execute: %w", rerr)
						}
					}
					mu.Lock()
					if err != nil && firstErr == nil {
						firstErr = err
					}
					if err == nil {
						sum.Ran++
						if rec.Status == store.Failed {
							sum.Failed++
						}
					}
					mu.Unlock()
					if bar != nil {
						bar.Done(rec.Status == store.Failed, p.Cost, rec.End.Sub(rec.Start))
					}
				}
				idle <- struct{}{}
			}
		}()
	}
	deadline, hasDeadline := ctx.Deadline()
	// resumableFrom[i] says whether a run from todo[i] on keeps a
	// checkpoint: one a budget's last minutes can go to without losing them.
	resumableFrom := make([]bool, len(todo)+1)
	for i := len(todo) - 1; i >= 0; i-- {
		resumableFrom[i] = resumableFrom[i+1] || x.keepsCut(todo[i].Job)
	}
feed:
	for i, p := range todo {
		select {
		case <-idle:
		case <-ctx.Done():
			break feed
		}
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		if hasDeadline && !x.fits(p, time.Until(deadline), resumableFrom[i+1]) {
			idle <- struct{}{} // the worker stays idle
			continue
		}
		ch <- p
	}
	close(ch)
	wg.Wait()
	if firstErr != nil {
		return sum, firstErr
	}
	return sum, ctx.Err()
}

// costMargin is how much longer than its Cost a run without a checkpoint
// may well take. A budget's deadline starts such a run with less than this
// to spare only where no resumable run could use the time instead: cut at
// the deadline, it loses all it computed, where a resumable run keeps it.
// The Cost's epochs are the median of the method's converged runs, and the
// paper's stopping rule fires at one of its checks, 50 epochs apart: FORTE's
// USPS-size runs at λ = 8 (estimated 32 min) took 200 epochs, 47 and 48 min,
// where those at λ = 4 took the median 150.
const costMargin = 1.5

// fits reports whether the run p may start with left until the deadline: a
// run that keeps what it computes when cut (keepsCut) when it is expected
// to finish or left is at least minResumeSlice; another when it is
// expected to finish, and, where such a run comes after it
// (resumableLater) and could use the time, with costMargin to spare.
func (x *Executor) fits(p Pending, left time.Duration, resumableLater bool) bool {
	switch {
	case x.keepsCut(p.Job):
		return p.Cost <= left || left >= x.minResumeSlice()
	case p.Cost > left:
		return false
	case resumableLater && left >= x.minResumeSlice():
		return float64(p.Cost)*costMargin <= float64(left)
	}
	return true
}

// totalCost sums the runs' Costs; known is false when one of them has none.
func totalCost(runs []Pending) (total time.Duration, known bool) {
	for _, p := range runs {
		if p.Cost <= 0 {
			return 0, false
		}
		total += p.Cost
	}
	return total, len(runs) > 0
}

// minResumeSlice is the least time left under a deadline for which a
// resumable run is started although its Cost exceeds it: two intervals
// between checkpoints, enough for one or two to keep what it computes.
func (x *Executor) minResumeSlice() time.Duration {
	cp := embed.Checkpoint{Every: x.CheckpointEvery}
	return 2 * cp.Interval()
}

// keepsCut reports whether a run of j cut at a deadline keeps what it
// computed for a later execution: it keeps a checkpoint, which WholeRuns
// does not count on.
func (x *Executor) keepsCut(j job.Canonical) bool {
	return !x.WholeRuns && x.checkpoint(j) != nil
}

// checkpoint returns the checkpoint the run j keeps (see Checkpoints), or
// nil when it keeps none.
func (x *Executor) checkpoint(j job.Canonical) *embed.Checkpoint {
	if x.Checkpoints == "" || (j.Config.Backend != "" && j.Config.Backend != job.CPU) {
		return nil
	}
	// Normalize writes the default optimiser as "", the one a resumable
	// method resumes with.
	if info, err := embed.Lookup(j.Config.Algorithm); err != nil || !info.Resumable || j.Config.Optimizer != "" {
		return nil
	}
	return &embed.Checkpoint{Path: filepath.Join(x.Checkpoints, j.Key), ID: j.Key, Every: x.CheckpointEvery}
}

// Unique returns runs with each key once, in the order of first appearance;
// a key given more than once keeps what its declarations keep (the widest
// Keep, with a View from any of them).
func Unique(runs []Pending) []Pending {
	var out []Pending
	at := map[string]int{}
	for _, r := range runs {
		i, ok := at[r.Job.Key]
		if !ok {
			at[r.Job.Key] = len(out)
			out = append(out, r)
			continue
		}
		out[i].Keep = out[i].Keep.wider(r.Keep)
		if out[i].View == nil {
			out[i].View = r.View
		}
	}
	return out
}

// missing returns the runs to execute, each key once, in order, and counts
// the others as cached.
func (x *Executor) missing(ctx context.Context, runs []Pending) ([]Pending, Summary, error) {
	var sum Summary
	unique := Unique(runs)
	keys := make([]string, len(unique))
	for i, r := range unique {
		keys[i] = r.Job.Key
	}
	status, err := x.Store.Statuses(ctx, keys)
	if err != nil {
		return nil, sum, err
	}
	var todo []Pending
	for _, r := range unique {
		st, ok := status[r.Job.Key]
		if !ok || (st == store.Failed && x.RetryFailed) {
			todo = append(todo, r)
		}
	}
	sum.Cached = len(unique) - len(todo)
	return todo, sum, nil
}

func (x *Executor) parallelism() (jobs, threads int) {
	cpus := runtime.GOMAXPROCS(0)
	jobs = x.Jobs
	if jobs <= 0 {
		jobs = cpus
	}
	threads = x.Threads
	if threads <= 0 {
		threads = max(1, cpus/jobs)
	}
	return jobs, threads
}

// runOne evaluates a job and turns the result into a record. stored is false
// when the run was cut short by cancellation.
func (x *Executor) runOne(ctx context.Context, p Pending, threads int) (rec store.Record, stored bool) {
	rec = store.Record{Job: p.Job, Host: x.Host, Start: time.Now()}
	if cp := x.checkpoint(p.Job); cp != nil {
		ctx = job.WithCheckpoint(ctx, cp)
	}
	out, err := safeEval(ctx, p.Eval, p.Job.Config, threads)
	rec.End = time.Now()
	if err != nil && ctx.Err() != nil {
		return rec, false
	}
	if err == nil {
		err = checkFinite(out)
	}
	if err != nil {
		rec.Status, rec.Error = store.Failed, err.Error()
		return rec, true
	}
	switch p.Keep {
	case KeepNone:
		out.Embedding, out.Labels = nil, nil
	case KeepView:
		if out.Embedding != nil {
			if v, labels, err := p.View(out.Embedding, out.Labels, threads); err == nil {
				out.Embedding, out.Labels, rec.View = v, labels, true
			}
		}
	}
	rec.Status, rec.Outcome = store.OK, out
	return rec, true
}

// safeEval turns a panic of the evaluation into an error, so that one broken
// run does not take down the others.
func safeEval(ctx context.Context, eval EvalFunc, c job.Config, threads int) (out *job.Outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	out, err = eval(ctx, c, threads)
	if err == nil && out == nil {
		err = errors.New("evaluation returned no outcome")
	}
	return out, err
}

// checkFinite rejects an outcome whose embedding or quality metrics are NaN
// or infinite: divergence is an error, never a result.
func checkFinite(o *job.Outcome) error {
	for _, name := range []string{job.TrainError, job.TestError, job.Procrustes} {
		if v, ok := o.Metrics[name]; ok && (math.IsNaN(v) || math.IsInf(v, 0)) {
			return fmt.Errorf("%s is %v: diverged (NaN or Inf)", name, v)
		}
	}
	if o.Embedding != nil {
		r, c := o.Embedding.Dims()
		for i := 0; i < r; i++ {
			for k := 0; k < c; k++ {
				if v := o.Embedding.At(i, k); math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("embedding[%d,%d] is %v: diverged (NaN or Inf)", i, k, v)
				}
			}
		}
	}
	return nil
}
