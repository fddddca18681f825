package execute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

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
	// Host is recorded with every run.
	Host hostinfo.Host
	// Progress receives the progress bar (nil: none).
	Progress io.Writer
}

// Summary counts what Execute did.
type Summary struct {
	// Cached runs were already stored (ok, or failed without RetryFailed).
	Cached int
	// Ran runs were executed now; Failed of them failed.
	Ran, Failed int
}

// String reads like "12 cached, 3 run (1 failed)".
func (s Summary) String() string {
	out := fmt.Sprintf("%d cached, %d run", s.Cached, s.Ran)
	if s.Failed > 0 {
		out += fmt.Sprintf(" (%d failed)", s.Failed)
	}
	return out
}

// Add returns the sum of two summaries.
func (s Summary) Add(o Summary) Summary {
	return Summary{Cached: s.Cached + o.Cached, Ran: s.Ran + o.Ran, Failed: s.Failed + o.Failed}
}

// Execute makes sure every job is stored: jobs whose key is missing (or
// failed, with RetryFailed) are executed. Duplicate keys run once. It
// returns an error only when the store fails or ctx is cancelled; failures of
// runs are recorded instead.
func (x *Executor) Execute(ctx context.Context, jobs []job.Canonical) (Summary, error) {
	var sum Summary
	if x.Eval == nil {
		return sum, errors.New("execute: no evaluation function")
	}
	seen := map[string]bool{}
	var unique []job.Canonical
	keys := make([]string, 0, len(jobs))
	for _, j := range jobs {
		if !seen[j.Key] {
			seen[j.Key] = true
			unique = append(unique, j)
			keys = append(keys, j.Key)
		}
	}
	status, err := x.Store.Statuses(ctx, keys)
	if err != nil {
		return sum, err
	}
	var todo []job.Canonical
	for _, j := range unique {
		st, ok := status[j.Key]
		if !ok || (st == store.Failed && x.RetryFailed) {
			todo = append(todo, j)
		}
	}
	sum.Cached = len(unique) - len(todo)
	var bar *progress.Bar
	if x.Progress != nil {
		bar = progress.New(x.Progress, x.Experiment, len(unique))
		bar.Cached(sum.Cached)
		defer bar.Finish()
	}
	jobsN, threads := x.parallelism()
	ch := make(chan job.Canonical)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for w := 0; w < min(jobsN, max(1, len(todo))); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				rec, stored := x.runOne(ctx, j, threads)
				if !stored {
					continue // cancelled: leave it for the next time
				}
				err := x.Store.Put(context.WithoutCancel(ctx), rec)
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
					bar.Done(rec.Status == store.Failed)
				}
			}
		}()
	}
feed:
	for _, j := range todo {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop {
			break
		}
		select {
		case ch <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	if firstErr != nil {
		return sum, firstErr
	}
	return sum, ctx.Err()
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
func (x *Executor) runOne(ctx context.Context, j job.Canonical, threads int) (rec store.Record, stored bool) {
	rec = store.Record{Job: j, Host: x.Host, Start: time.Now()}
	out, err := x.safeEval(ctx, j.Config, threads)
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
	rec.Status, rec.Outcome = store.OK, out
	return rec, true
}

// safeEval turns a panic of the evaluation into an error, so that one broken
// run does not take down the others.
func (x *Executor) safeEval(ctx context.Context, c job.Config, threads int) (out *job.Outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	out, err = x.Eval(ctx, c, threads)
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
