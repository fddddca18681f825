package plan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner"
	"github.com/oe-lab/oe/runner/evaluate"
	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/store"
)

// Plan is the runs that some scripts declare at a profile and a database
// lacks, each with its estimated Cost.
type Plan struct {
	// Runs are in the order the scripts declare them, each key once.
	Runs []execute.Pending
	// Model estimated the costs.
	Model *Model
	// SkippedForData counts, by dataset, the runs the scripts declare but
	// left out because their dataset's files are not here (OE_DATA) and
	// the database lacks them (a stored run is known by its key), and so
	// are not in Runs.
	SkippedForData map[string]int
	// Awaited are the groups of runs that the scripts' checks of the
	// paper's findings wait for (runner.Declared), which FindingsFirst
	// orders the runs by.
	Awaited []runner.Awaited
}

// SkippedNote says which runs the plan lacks for want of their data files,
// so that a plan made without them does not pass for a complete one; it is
// empty where none was left out.
func (p *Plan) SkippedNote() string {
	if len(p.SkippedForData) == 0 {
		return ""
	}
	var parts []string
	for _, d := range slices.Sorted(maps.Keys(p.SkippedForData)) {
		parts = append(parts, fmt.Sprintf("%s (%d)", d, p.SkippedForData[d]))
	}
	return "not counted: the runs the scripts declare on datasets whose files (or their stand-in's) are not here, and that results.db lacks, " +
		strings.Join(parts, ", ") + "; `oerun data` says where it looks for them (OE_DATA)"
}

// Make declares the scripts at opt's profile against the database opt.DB
// (runner.Declare: nothing is executed or written; a missing database holds
// no runs) and estimates each missing run's cost with the model calibrated
// on that database. The runs share one evaluator, so that executing them
// loads each dataset once for all scripts. The scripts' own output goes to
// io.Discard.
func Make(ctx context.Context, opt runner.Options, scripts []string) (*Plan, error) {
	model, err := ModelFor(ctx, opt.DB)
	if err != nil {
		return nil, err
	}
	if opt.Eval == nil {
		opt.Eval = evaluate.New().Run
	}
	opt.Stdout, opt.Stderr = io.Discard, io.Discard
	var all []execute.Pending
	var awaited []runner.Awaited
	skipped := map[string]int{}
	for _, script := range scripts {
		opt.Script = script
		d, err := runner.Declare(ctx, opt)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", script, err)
		}
		all = append(all, d.Runs...)
		awaited = append(awaited, d.Awaited...)
		for dataset, n := range d.SkippedForData {
			skipped[dataset] += n
		}
	}
	p := &Plan{Model: model, Runs: execute.Unique(all), SkippedForData: skipped, Awaited: awaited}
	for i := range p.Runs {
		p.Runs[i].Cost = model.Estimate(p.Runs[i].Job.Config)
	}
	return p, nil
}

// ModelFor returns the model calibrated on the database at path (opened
// read-only), or the default model where there is no database yet.
func ModelFor(ctx context.Context, path string) (*Model, error) {
	st, err := store.OpenReadOnly(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Default(), nil
	case err != nil:
		return nil, err
	}
	defer st.Close()
	return Calibrate(ctx, st)
}

// Total returns the summed cost of runs.
func Total(runs []execute.Pending) time.Duration {
	var t time.Duration
	for _, r := range runs {
		t += r.Cost
	}
	return t
}

// Begun returns the checkpoint headers of the runs that have a checkpoint
// of their own in dir (runner.CheckpointDir: a fit a previous budget or task
// began, see execute.Executor.Checkpoints), by key: how many epochs their
// fits did and the time that took. A file it cannot read counts as none:
// the run reads it, and says what is wrong.
func Begun(runs []execute.Pending, dir string) map[string]embed.CheckpointHeader {
	begun := map[string]embed.CheckpointHeader{}
	for _, r := range runs {
		h, ok, err := embed.ReadCheckpoint(filepath.Join(dir, r.Job.Key), nil)
		if err == nil && ok && h.ID == r.Job.Key {
			begun[r.Job.Key] = h
		}
	}
	return begun
}

// Resumed returns runs with the cost of each begun run (Begun) lowered by
// the time its fit has computed, to no less than a tenth of its estimate,
// so that a budget finishes what an earlier one began before it starts runs
// of the same estimate. Apply it after Split, never before: a shard's runs
// must not depend on what one machine has done.
func Resumed(runs []execute.Pending, begun map[string]embed.CheckpointHeader) []execute.Pending {
	out := slices.Clone(runs)
	for i, r := range out {
		if h, ok := begun[r.Job.Key]; ok {
			out[i].Cost = max(r.Cost-h.Elapsed, r.Cost/10)
		}
	}
	return out
}

// CheapestFirst returns the runs ordered by cost, the cheapest first; runs
// of equal cost keep the order of their keys.
func CheapestFirst(runs []execute.Pending) []execute.Pending {
	out := slices.Clone(runs)
	slices.SortFunc(out, func(a, b execute.Pending) int {
		if c := cmpCost(a, b); c != 0 {
			return c
		}
		return strings.Compare(a.Job.Key, b.Job.Key)
	})
	return out
}

func cmpCost(a, b execute.Pending) int {
	switch {
	case a.Cost < b.Cost:
		return -1
	case a.Cost > b.Cost:
		return 1
	}
	return 0
}

// Split divides the runs into n disjoint shards that together hold every
// run, balanced by cost: longest processing time first, each run (the most
// expensive first, equal costs by key) going to the shard with the least
// cost so far (the lowest index among equals). The shards' costs then differ
// by at most the cost of one run. Within a shard the runs are in that order,
// most expensive first, which also balances a task's parallel jobs. The
// split depends only on the runs' keys and costs, not on their order.
// Split panics if n < 1.
func Split(runs []execute.Pending, n int) [][]execute.Pending {
	if n < 1 {
		panic(fmt.Sprintf("plan: Split into %d shards", n))
	}
	order := slices.Clone(runs)
	slices.SortFunc(order, func(a, b execute.Pending) int {
		if c := cmpCost(b, a); c != 0 {
			return c
		}
		return strings.Compare(a.Job.Key, b.Job.Key)
	})
	shards := make([][]execute.Pending, n)
	load := make([]time.Duration, n)
	for _, r := range order {
		i := 0
		for j := 1; j < n; j++ {
			if load[j] < load[i] {
				i = j
			}
		}
		shards[i] = append(shards[i], r)
		load[i] += r.Cost
	}
	return shards
}

// Shard names the I-th of N shards, counting from 0, as Slurm numbers the
// tasks of an array 0..N-1.
type Shard struct{ I, N int }

// String writes the shard as ParseShard reads it, "I/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// ParseShard reads "I/N", 0 ≤ I < N; errors name the value.
func ParseShard(v string) (Shard, error) {
	i, n, ok := strings.Cut(v, "/")
	si, errI := strconv.Atoi(strings.TrimSpace(i))
	sn, errN := strconv.Atoi(strings.TrimSpace(n))
	switch {
	case !ok || errI != nil || errN != nil:
		return Shard{}, fmt.Errorf("plan: shard %q: want I/N, two whole numbers (the I-th of N shards, from 0)", v)
	case sn < 1:
		return Shard{}, fmt.Errorf("plan: shard %q: the number of shards N must be at least 1", v)
	case si < 0 || si >= sn:
		return Shard{}, fmt.Errorf("plan: shard %q: the index I must be from 0 to %d (N-1)", v, sn-1)
	}
	return Shard{si, sn}, nil
}

// Execute executes the runs with x in the order given (see
// execute.Executor.ExecutePending); with a non-zero deadline it starts no
// run that its cost says would end after it, and cancels the runs still in
// flight at the deadline, which are not stored. Reaching the deadline is no
// error. It returns what it did and the runs it left to do: those it did
// not complete that x's store lacks (or holds as failed, with
// x.RetryFailed), in the order given.
func Execute(ctx context.Context, x *execute.Executor, runs []execute.Pending, deadline time.Time) (execute.Summary, []execute.Pending, error) {
	run := ctx
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		run, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	var mu sync.Mutex
	completed := map[string]bool{}
	tracked := make([]execute.Pending, len(runs))
	for i, r := range runs {
		eval, key := r.Eval, r.Job.Key
		r.Eval = func(ctx context.Context, c job.Config, threads int) (*job.Outcome, error) {
			out, err := eval(ctx, c, threads)
			if ctx.Err() == nil {
				mu.Lock()
				completed[key] = true
				mu.Unlock()
			}
			return out, err
		}
		tracked[i] = r
	}
	sum, err := x.ExecutePending(run, tracked)
	if err != nil && !(errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil) {
		return sum, nil, err
	}
	keys := make([]string, len(runs))
	for i, r := range runs {
		keys[i] = r.Job.Key
	}
	status, err := x.Store.Statuses(context.WithoutCancel(ctx), keys)
	if err != nil {
		return sum, nil, err
	}
	var left []execute.Pending
	for _, r := range runs {
		st, stored := status[r.Job.Key]
		if !completed[r.Job.Key] && (!stored || (st == store.Failed && x.RetryFailed)) {
			left = append(left, r)
		}
	}
	return sum, left, nil
}
