package plan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner"
	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/store"
)

func init() {
	embed.Register(embed.Info{Name: "planfake", Version: 1, Params: embed.Params{},
		New: func(embed.Params) (embed.Algorithm, error) { return nil, errors.New("evaluated by fakeEval") }})
}

// fakeEval computes a run from its config alone, deterministically.
func fakeEval(calls *atomic.Int64) execute.EvalFunc {
	return func(_ context.Context, c job.Config, threads int) (*job.Outcome, error) {
		calls.Add(1)
		emb := mat.NewDense(c.N, c.Dim, nil)
		for i := 0; i < c.N; i++ {
			emb.Set(i, 0, float64(i%7)+float64(c.Rep))
		}
		return &job.Outcome{Metrics: map[string]float64{job.TestError: 1 / float64(c.N*c.Dim+c.Rep), job.FitSeconds: 0.01},
			Embedding: emb, StopReason: embed.StopConverged.String(), Threads: threads}, nil
	}
}

// pending returns runs with the given costs and made-up keys.
func pending(costs ...time.Duration) []execute.Pending {
	out := make([]execute.Pending, len(costs))
	for i, c := range costs {
		// An odd multiplier makes distinct keys that do not sort as i does.
		out[i] = execute.Pending{Job: job.Canonical{Key: fmt.Sprintf("%016x", uint64(i)*0x9E3779B97F4A7C15)}, Cost: c}
	}
	return out
}

func keys(runs []execute.Pending) []string {
	out := make([]string, len(runs))
	for i, r := range runs {
		out[i] = r.Job.Key
	}
	return out
}

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		want Shard
		err  string
	}{
		{in: "0/1", want: Shard{0, 1}},
		{in: "2/3", want: Shard{2, 3}},
		{in: "3/2", err: `shard "3/2": the index I must be from 0 to 1 (N-1)`},
		{in: "2/2", err: `shard "2/2": the index I must be from 0 to 1`},
		{in: "-1/2", err: `shard "-1/2": the index I must be from 0 to 1`},
		{in: "0/0", err: `shard "0/0": the number of shards N must be at least 1`},
		{in: "a/b", err: `shard "a/b": want I/N, two whole numbers`},
		{in: "1", err: `shard "1": want I/N`},
		{in: "", err: `shard "": want I/N`},
	}
	for _, tc := range tests {
		got, err := ParseShard(tc.in)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("ParseShard(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseShard(%q): error %v, want %q", tc.in, err, tc.err)
		case tc.err == "" && got.String() != tc.in:
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tc.in)
		}
	}
}

// TestSplit checks the split's promises on named inputs: every run in
// exactly one shard, shard costs within one run's cost of each other, and
// the same split whatever the order of the runs.
func TestSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]time.Duration, 500)
	for i := range random {
		random[i] = time.Duration(rng.ExpFloat64() * float64(time.Minute))
	}
	tests := []struct {
		name   string
		costs  []time.Duration
		shards int
	}{
		{"no runs", nil, 3},
		{"fewer runs than shards", []time.Duration{5, 1}, 4},
		{"one shard", []time.Duration{3, 1, 2}, 1},
		{"equal costs", slices.Repeat([]time.Duration{time.Second}, 10), 3},
		{"one run dwarfs the rest", append([]time.Duration{time.Hour}, slices.Repeat([]time.Duration{time.Second}, 50)...), 4},
		{"500 runs, exponential costs", random, 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runs := pending(tc.costs...)
			shards := Split(runs, tc.shards)
			if len(shards) != tc.shards {
				t.Fatalf("%d shards, want %d", len(shards), tc.shards)
			}
			seen := map[string]int{}
			var lo, hi, maxCost time.Duration = math.MaxInt64, 0, 0
			for _, sh := range shards {
				for _, r := range sh {
					seen[r.Job.Key]++
					maxCost = max(maxCost, r.Cost)
				}
				lo, hi = min(lo, Total(sh)), max(hi, Total(sh))
			}
			for _, r := range runs {
				if seen[r.Job.Key] != 1 {
					t.Errorf("run %.8s is in %d shards, want 1", r.Job.Key, seen[r.Job.Key])
				}
			}
			if len(seen) != len(runs) {
				t.Errorf("the shards hold %d runs, want %d", len(seen), len(runs))
			}
			if hi-lo > maxCost {
				t.Errorf("shard costs from %v to %v differ by more than the largest run's %v", lo, hi, maxCost)
			}
			shuffled := slices.Clone(runs)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			for i, sh := range Split(shuffled, tc.shards) {
				if !slices.Equal(keys(sh), keys(shards[i])) {
					t.Fatalf("shard %d differs when the runs come in another order", i)
				}
			}
		})
	}
}

func TestCheapestFirst(t *testing.T) {
	runs := pending(3*time.Second, time.Second, 2*time.Second, time.Second)
	got := CheapestFirst(runs)
	want := []time.Duration{time.Second, time.Second, 2 * time.Second, 3 * time.Second}
	for i, r := range got {
		if r.Cost != want[i] {
			t.Fatalf("costs in order %v, want %v", got, want)
		}
	}
	if got[0].Job.Key > got[1].Job.Key {
		t.Error("runs of equal cost are not in key order")
	}
}

// TestExecuteStopsAtTheBudget: runs that fit in the time left run, the rest
// are returned as left to do.
func TestExecuteStopsAtTheBudget(t *testing.T) {
	st := openTemp(t)
	var calls atomic.Int64
	var runs []execute.Pending
	for i, cost := range []time.Duration{time.Millisecond, 2 * time.Millisecond, time.Hour, 2 * time.Hour} {
		c, err := job.Config{Dataset: "gmm", N: 10, Dim: 2, Lambda: 1, Algorithm: "planfake", Seed: uint64(i)}.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, execute.Pending{Job: c, Eval: fakeEval(&calls), Cost: cost})
	}
	x := &execute.Executor{Store: st, Jobs: 1}
	sum, left, err := Execute(context.Background(), x, runs, time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 2 || !slices.Equal(keys(left), keys(runs[2:])) {
		t.Errorf("%v, %d left; want the 2 runs that fit run and the 2 others left", sum, len(left))
	}
	// Without a deadline, everything runs.
	if sum, left, err = Execute(context.Background(), x, runs, time.Time{}); err != nil || sum.Ran != 2 || len(left) != 0 {
		t.Errorf("no budget: %v, %d left, %v; want the 2 others run", sum, len(left), err)
	}
}

// TestShardsMergeToTheSingleProcessResult is the Slurm array's flow in one
// process: every task plans from the same database, executes its shard into
// its own database, and the merged shards equal one process's results.
func TestShardsMergeToTheSingleProcessResult(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	scripts := []string{"testdata/sizes.go", "testdata/overlap.go"}
	var calls atomic.Int64
	opt := runner.Options{DB: filepath.Join(dir, "results.db"), Reports: filepath.Join(dir, "reports"), Profile: "smoke",
		Jobs: 2, Eval: fakeEval(&calls), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)}

	// One process.
	single := opt
	single.DB, single.Reports = filepath.Join(dir, "single.db"), filepath.Join(dir, "single")
	for _, s := range scripts {
		single.Script = s
		if _, err := runner.Run(ctx, single); err != nil {
			t.Fatal(err)
		}
	}
	if calls.Load() != 17 {
		t.Fatalf("the single process evaluated %d runs, want 17 (16 + 3, 2 shared)", calls.Load())
	}

	// Three tasks.
	const tasks = 3
	var shardDBs []string
	for i := 0; i < tasks; i++ {
		p, err := Make(ctx, opt, scripts)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Runs) != 17 {
			t.Fatalf("task %d planned %d runs, want 17", i, len(p.Runs))
		}
		path := filepath.Join(dir, fmt.Sprintf("shard%d.db", i))
		st, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		_, left, err := Execute(ctx, &execute.Executor{Store: st, Jobs: 2}, Split(p.Runs, tasks)[i], time.Time{})
		st.Close()
		if err != nil || len(left) != 0 {
			t.Fatalf("task %d: %d left, %v", i, len(left), err)
		}
		shardDBs = append(shardDBs, path)
	}
	if calls.Load() != 34 {
		t.Errorf("the tasks evaluated %d runs, want 17 between them", calls.Load()-17)
	}
	dst, err := store.Open(opt.DB)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range shardDBs {
		if _, err := dst.Merge(ctx, s, 0); err != nil {
			t.Fatal(err)
		}
	}
	dst.Close()
	// The scripts then execute nothing and record their executions.
	for _, s := range scripts {
		o := opt
		o.Script = s
		res, err := runner.Run(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Summary.Ran != 0 {
			t.Errorf("%s executed %d runs after the merge", s, res.Summary.Ran)
		}
	}
	for _, q := range []string{
		"SELECT key, status, config FROM runs ORDER BY key",
		"SELECT r.key, m.name, m.value FROM metrics m JOIN runs r ON r.id = m.run_id WHERE m.name = 'test_error' ORDER BY r.key",
		"SELECT x.experiment, x.profile, r.key, x.position, x.declared FROM experiment_runs x JOIN runs r ON r.id = x.run_id ORDER BY 1, 2, 4",
		"SELECT experiment, profile, script_sha256, runs FROM experiments ORDER BY 1, 2",
	} {
		if a, b := dump(t, opt.DB, q), dump(t, single.DB, q); a != b {
			t.Errorf("%s:\nsharded and merged:\n%s\none process:\n%s", q, a, b)
		}
	}
}

func dump(t *testing.T, path, query string) string {
	t.Helper()
	st, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.DB().Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&b, vals...)
	}
	return b.String()
}

func ExampleSplit() {
	var runs []execute.Pending
	for i, secs := range []int{50, 40, 30, 20, 20, 10} {
		runs = append(runs, execute.Pending{Job: job.Canonical{Key: fmt.Sprint(i)}, Cost: time.Duration(secs) * time.Second})
	}
	for i, shard := range Split(runs, 2) {
		fmt.Printf("shard %d/2: runs %v, %v\n", i, keys(shard), Total(shard))
	}
	// Output:
	// shard 0/2: runs [0 3 4], 1m30s
	// shard 1/2: runs [1 2 5], 1m20s
}

func ExampleParseShard() {
	for _, v := range []string{"2/8", "8/8"} {
		s, err := ParseShard(v)
		fmt.Println(s, err)
	}
	// Output:
	// 2/8 <nil>
	// 0/0 plan: shard "8/8": the index I must be from 0 to 7 (N-1)
}

// TestSkippedNote: a plan that lacks runs for want of their data says so,
// by dataset; one that lacks none says nothing.
func TestSkippedNote(t *testing.T) {
	cases := []struct {
		skipped map[string]int
		want    string // "" for no note, else a part the note must hold
	}{
		{nil, ""},
		{map[string]int{}, ""},
		{map[string]int{"usps": 895, "mnist": 1}, "mnist (1), usps (895); `oerun data`"},
	}
	for _, c := range cases {
		got := (&Plan{SkippedForData: c.skipped}).SkippedNote()
		if (got == "") != (c.want == "") || !strings.Contains(got, c.want) {
			t.Errorf("SkippedForData %v: note %q, want one holding %q", c.skipped, got, c.want)
		}
	}
}

// TestResumed: a run with a checkpoint of its own is begun, and costs its estimate less the time its
// fit computed, never below a tenth of the estimate; a run without one, or
// whose file is another run's or unreadable, costs its estimate. Cheapest
// first, the run half done then comes before its equals.
func TestResumed(t *testing.T) {
	dir := t.TempDir()
	runs := pending(time.Hour, time.Hour, time.Hour, 10*time.Minute, time.Hour)
	write := func(i int, id string, elapsed time.Duration) {
		h := embed.CheckpointHeader{ID: id, Epochs: 3, Elapsed: elapsed}
		if err := embed.WriteCheckpoint(filepath.Join(dir, runs[i].Job.Key), h, &struct{ X int }{1}); err != nil {
			t.Fatal(err)
		}
	}
	write(1, runs[1].Job.Key, 30*time.Minute)
	write(2, "another run", 30*time.Minute)
	write(3, runs[3].Job.Key, 20*time.Minute) // longer than its estimate
	if err := os.WriteFile(filepath.Join(dir, runs[4].Job.Key), []byte("damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	begun := Begun(runs, dir)
	if len(begun) != 2 || begun[runs[1].Job.Key].Elapsed != 30*time.Minute || begun[runs[3].Job.Key].Epochs != 3 {
		t.Errorf("begun: %+v, want runs 1 and 3", begun)
	}
	got := Resumed(runs, begun)
	want := []time.Duration{time.Hour, 30 * time.Minute, time.Hour, time.Minute, time.Hour}
	for i, r := range got {
		if r.Cost != want[i] {
			t.Errorf("run %d: cost %v, want %v", i, r.Cost, want[i])
		}
	}
	if runs[1].Cost != time.Hour {
		t.Error("Resumed changed the runs it was given")
	}
	if first := CheapestFirst(got); first[0].Job.Key != runs[3].Job.Key || first[1].Job.Key != runs[1].Job.Key {
		t.Errorf("cheapest first: %v, want runs 3 and 1 first", keys(first))
	}
}
