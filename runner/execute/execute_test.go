package execute

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/hostinfo"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/store"
)

func init() {
	embed.Register(embed.Info{Name: "execfake", Version: 1, Params: embed.Params{},
		New: func(embed.Params) (embed.Algorithm, error) { return nil, errors.New("not runnable") }})
	embed.Register(embed.Info{Name: "execresume", Version: 1, Params: embed.Params{}, Resumable: true,
		Backends:   map[embed.Backend]func() error{embed.BackendCUDA: func() error { return nil }},
		Optimizers: []embed.Optimizer{embed.OptimizerAdam, embed.OptimizerLBFGS},
		New:        func(embed.Params) (embed.Algorithm, error) { return nil, errors.New("not runnable") }})
}

// jobs returns n runs that differ in their seed.
// jobs returns n runs of seeds 0 … n-1 that keep their embeddings, with no
// evaluation of their own.
func jobs(n int) []Pending {
	out := make([]Pending, n)
	for i := range out {
		c, err := job.Config{Dataset: "uniform", N: 10, Dim: 2, Lambda: 1, Algorithm: "execfake", Seed: uint64(i)}.Normalize()
		if err != nil {
			panic(err)
		}
		out[i] = Pending{Job: c, Keep: KeepFull}
	}
	return out
}

// fakeEval succeeds after delay, except: seed 1 returns an error, seed 2 a
// NaN embedding, seed 3 panics — while failFlaky is set.
func fakeEval(delay time.Duration, calls *atomic.Int64, failFlaky *atomic.Bool) EvalFunc {
	return func(ctx context.Context, c job.Config, threads int) (*job.Outcome, error) {
		calls.Add(1)
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		emb := mat.NewDense(c.N, c.Dim, nil)
		if failFlaky == nil || failFlaky.Load() {
			switch c.Seed {
			case 1:
				return nil, embed.Diverged("execfake", 7)
			case 2:
				emb.Set(3, 1, math.NaN())
			case 3:
				panic("index out of range")
			}
		}
		// A convergence curve of 20 epochs, every one measured: the store
		// keeps them all.
		trace := make([]embed.Epoch, 20)
		for i := range trace {
			trace[i] = embed.Epoch{Epoch: i + 1, Loss: 1, TrainError: 0.1}
		}
		return &job.Outcome{Metrics: map[string]float64{job.TestError: 0.1 * float64(c.Seed)}, Trace: trace,
			StopReason: embed.StopMaxEpochs.String(), Embedding: emb, Threads: threads}, nil
	}
}

func openStore(t testing.TB, path string) *store.Store {
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestExecuteCachesAndRecordsFailures(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	var calls atomic.Int64
	var flaky atomic.Bool
	flaky.Store(true)
	var bar bytes.Buffer
	x := &Executor{Store: s, Experiment: "t", Jobs: 2, Eval: fakeEval(time.Millisecond, &calls, &flaky), Host: hostinfo.Current(), Progress: &bar}
	js := jobs(6)
	js = append(js, js[0]) // a duplicate runs once
	steps := []struct {
		name        string
		retry, fix  bool
		want        Summary
		wantCalls   int64
		wantFailedN int
	}{
		{"first run executes all, failures recorded", false, false, Summary{Ran: 6, Failed: 3}, 6, 3},
		{"rerun executes nothing", false, false, Summary{Cached: 6}, 6, 3},
		{"retry-failed reruns the failures only", true, true, Summary{Cached: 3, Ran: 3}, 9, 0},
		{"then everything is cached", true, false, Summary{Cached: 6}, 9, 0},
	}
	for _, st := range steps {
		x.RetryFailed = st.retry
		if st.fix {
			flaky.Store(false)
		}
		got, err := x.Execute(ctx, js)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got != st.want || calls.Load() != st.wantCalls {
			t.Errorf("%s: summary %v after %d calls, want %v after %d", st.name, got, calls.Load(), st.want, st.wantCalls)
		}
		var failed int
		s.DB().QueryRow("SELECT count(*) FROM runs WHERE status = 'failed'").Scan(&failed)
		if failed != st.wantFailedN {
			t.Errorf("%s: %d failed runs stored, want %d", st.name, failed, st.wantFailedN)
		}
	}
	if !strings.Contains(bar.String(), "6/6 runs (6 cached, 0 failed)") {
		t.Errorf("progress output lacks the cached line:\n%s", bar.String())
	}
}

func TestFailureReasonsAreStored(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	var calls atomic.Int64
	x := &Executor{Store: s, Jobs: 1, Eval: fakeEval(0, &calls, nil)}
	js := jobs(4)
	if _, err := x.Execute(context.Background(), js); err != nil {
		t.Fatal(err)
	}
	want := map[int]string{0: "", 1: "execfake: epoch 7: diverged (NaN or Inf)", 2: "embedding[3,1] is NaN", 3: "panic: index out of range"}
	for seed, w := range want {
		var e string
		if err := s.DB().QueryRow("SELECT error FROM runs WHERE key = ?", js[seed].Job.Key).Scan(&e); err != nil {
			t.Fatal(err)
		}
		if (w == "" && e != "") || !strings.Contains(e, w) {
			t.Errorf("seed %d: error %q, want %q", seed, e, w)
		}
	}
}

func TestCancelledRunsAreNotRecorded(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	var calls atomic.Int64
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	x := &Executor{Store: s, Jobs: 2, Eval: fakeEval(time.Hour, &calls, nil)}
	if _, err := x.Execute(ctx, jobs(4)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want deadline exceeded", err)
	}
	var n int
	s.DB().QueryRow("SELECT count(*) FROM runs").Scan(&n)
	if n != 0 {
		t.Errorf("%d cancelled runs recorded", n)
	}
}

const (
	childDB    = "OE_EXECUTE_CHILD_DB"
	childDelay = "OE_EXECUTE_CHILD_DELAY"
	childRuns  = 8
)

// TestMain doubles as the child process of the tests below: with childDB
// set it executes childRuns runs against that database and exits.
func TestMain(m *testing.M) {
	if path := os.Getenv(childDB); path != "" {
		os.Exit(child(path))
	}
	os.Exit(m.Run())
}

func child(path string) int {
	delay, _ := time.ParseDuration(os.Getenv(childDelay))
	s, err := store.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	var calls atomic.Int64
	var flaky atomic.Bool
	x := &Executor{Store: s, Experiment: "child", Jobs: 2, Eval: fakeEval(delay, &calls, &flaky)}
	sum, err := x.Execute(context.Background(), jobs(childRuns))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(sum)
	return 0
}

func startChild(t *testing.T, path string, delay time.Duration) (*exec.Cmd, *bytes.Buffer) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childDB+"="+path, childDelay+"="+delay.String())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

// checkSound asserts integrity_check = ok and that every stored run is whole.
func checkSound(t *testing.T, s *store.Store) (runs int) {
	t.Helper()
	if res, err := s.IntegrityCheck(context.Background()); err != nil || res != "ok" {
		t.Fatalf("integrity_check = %q, %v", res, err)
	}
	var partial int
	s.DB().QueryRow("SELECT count(*) FROM runs").Scan(&runs)
	s.DB().QueryRow(`SELECT count(*) FROM runs r WHERE status = 'ok' AND (
		(SELECT count(*) FROM epochs e WHERE e.run_id = r.id) != 20 OR
		NOT EXISTS (SELECT 1 FROM metrics m WHERE m.run_id = r.id) OR
		NOT EXISTS (SELECT 1 FROM embeddings b WHERE b.run_id = r.id))`).Scan(&partial)
	if partial != 0 {
		t.Errorf("%d partial runs", partial)
	}
	return runs
}

// TestKillMidRunThenRerun kills (SIGKILL) a process in the middle of its
// runs, then reruns the batch: the completed runs are kept, nothing partial
// is left, and only the rest execute.
func TestKillMidRunThenRerun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	openStore(t, path) // create the schema before the child starts
	cmd, out := startChild(t, path, 150*time.Millisecond)
	s := openStore(t, path)
	deadline := time.Now().Add(20 * time.Second)
	for {
		var n int
		s.DB().QueryRow("SELECT count(*) FROM runs").Scan(&n)
		if n >= 2 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("child stored %d runs in 20 s; output:\n%s", n, out)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	kept := checkSound(t, s)
	if kept < 2 || kept >= childRuns {
		t.Fatalf("%d runs survived the kill, want between 2 and %d", kept, childRuns-1)
	}
	var calls atomic.Int64
	var flaky atomic.Bool
	x := &Executor{Store: s, Experiment: "child", Jobs: 2, Eval: fakeEval(0, &calls, &flaky)}
	sum, err := x.Execute(context.Background(), jobs(childRuns))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Summary{Cached: kept, Ran: childRuns - kept}); sum != want {
		t.Errorf("rerun: %v, want %v", sum, want)
	}
	if n := checkSound(t, s); n != childRuns {
		t.Errorf("%d runs after the rerun, want %d", n, childRuns)
	}
}

// TestTwoProcessesShareDatabase runs the same batch from two processes at
// once on one database: both finish, and every run is stored once and whole.
func TestTwoProcessesShareDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	openStore(t, path)
	a, outA := startChild(t, path, 20*time.Millisecond)
	b, outB := startChild(t, path, 20*time.Millisecond)
	for i, c := range []*exec.Cmd{a, b} {
		if err := c.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s%s", i, err, outA, outB)
		}
	}
	s := openStore(t, path)
	if n := checkSound(t, s); n != childRuns {
		t.Errorf("%d runs stored, want %d", n, childRuns)
	}
	// Between them the two processes executed every run at least once.
	total := 0
	for _, out := range []*bytes.Buffer{outA, outB} {
		var cached, ran int
		fmt.Sscanf(out.String(), "%d cached, %d run", &cached, &ran)
		total += ran
	}
	if total < childRuns {
		t.Errorf("the processes ran %d runs in all, want ≥ %d:\n%s%s", total, childRuns, outA, outB)
	}
}

func ExampleSummary() {
	fmt.Println(Summary{Cached: 12, Ran: 3, Failed: 1})
	fmt.Println(Summary{Cached: 15})
	// Output:
	// 12 cached, 3 run (1 failed)
	// 15 cached, 0 run
}

func TestDeferCollectsTheMissingRuns(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	var calls atomic.Int64
	js := jobs(5)
	x := &Executor{Store: s, Experiment: "t", Jobs: 1, Eval: fakeEval(0, &calls, nil)}
	if _, err := x.Execute(ctx, js[:2]); err != nil { // seed 0 ok, seed 1 failed
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		retry bool
		want  []Pending
	}{
		{"missing runs only", false, js[2:]},
		{"failed runs too with RetryFailed", true, js[1:]},
	}
	for _, tc := range tests {
		var got []Pending
		x.RetryFailed = tc.retry
		x.Defer = func(p []Pending) { got = append(got, p...) }
		before := calls.Load()
		sum, err := x.Execute(ctx, append(js, js[4])) // a duplicate is deferred once
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if calls.Load() != before {
			t.Errorf("%s: %d runs executed, want none", tc.name, calls.Load()-before)
		}
		if sum != (Summary{Cached: len(js) - len(tc.want)}) {
			t.Errorf("%s: summary %v", tc.name, sum)
		}
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %d runs deferred, want %d", tc.name, len(got), len(tc.want))
		}
		for i, p := range got {
			if p.Job.Key != tc.want[i].Job.Key || p.Experiment != "t" || p.Eval == nil {
				t.Errorf("%s: deferred run %d is %.12s of %q, want %.12s of \"t\" with its evaluation", tc.name, i, p.Job.Key, p.Experiment, tc.want[i].Job.Key)
			}
		}
	}
}

// TestExecutePendingUsesEachRunsEvaluation: runs of one batch may need
// different evaluations (exp's Extension has its own).
func TestExecutePendingUsesEachRunsEvaluation(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	var a, b atomic.Int64
	js := jobs(6)
	var runs []Pending
	for i, j := range js {
		if i == 1 || i == 2 || i == 3 { // the failing seeds: keep the batch ok
			continue
		}
		eval := fakeEval(0, &a, nil)
		if i%2 == 1 {
			eval = fakeEval(0, &b, nil)
		}
		runs = append(runs, Pending{Job: j.Job, Eval: eval})
	}
	x := &Executor{Store: s, Jobs: 2}
	sum, err := x.ExecutePending(ctx, runs)
	if err != nil {
		t.Fatal(err)
	}
	if sum != (Summary{Ran: 3}) || a.Load() != 2 || b.Load() != 1 {
		t.Errorf("summary %v, evaluations %d and %d, want 3 run by 2 and 1", sum, a.Load(), b.Load())
	}
	if _, err := x.ExecutePending(ctx, []Pending{{Job: js[4].Job}}); err == nil || !strings.Contains(err.Error(), "no evaluation") {
		t.Errorf("a run without evaluation: error %v", err)
	}
}

// TestExecutePendingStopsAtTheDeadline: with a budget (ctx's deadline), runs
// given cheapest first start while their cost fits in the time left; the
// first that does not ends the batch, and nothing half-done is stored.
func TestExecutePendingStopsAtTheDeadline(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	var calls atomic.Int64
	js := jobs(8)
	costs := []time.Duration{time.Millisecond, 2 * time.Millisecond, time.Hour, time.Hour}
	var runs []Pending
	for i, seed := range []int{0, 4, 5, 6} {
		runs = append(runs, Pending{Job: js[seed].Job, Eval: fakeEval(20*time.Millisecond, &calls, nil), Cost: costs[i], Keep: KeepFull})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	x := &Executor{Store: s, Jobs: 1}
	sum, err := x.ExecutePending(ctx, runs)
	if err != nil {
		t.Fatal(err)
	}
	if sum != (Summary{Ran: 2}) || calls.Load() != 2 {
		t.Errorf("summary %v after %d evaluations, want the 2 runs that fit", sum, calls.Load())
	}
	// A run in flight at the deadline is cancelled and not stored.
	short, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	slow := Pending{Job: js[7].Job, Eval: fakeEval(time.Hour, &calls, nil), Cost: time.Millisecond}
	if _, err := x.ExecutePending(short, []Pending{slow}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want deadline exceeded", err)
	}
	if n := checkSound(t, s); n != 2 {
		t.Errorf("%d runs stored, want 2", n)
	}
}

// TestExecutePendingJudgesTheTimeLeftAtTheStart: with one worker, whether
// a run fits the budget is judged when the worker comes free for it, not
// when the previous run started. The second run's cost fits the time left
// at the start (0.8 s of 1.5 s) but not after the first run's 1 s; judged
// early, it would start and be cut at the deadline, its time lost.
func TestExecutePendingJudgesTheTimeLeftAtTheStart(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	js := jobs(8)
	var first, second atomic.Int64
	runs := []Pending{
		{Job: js[0].Job, Eval: fakeEval(time.Second, &first, nil), Cost: 10 * time.Millisecond, Keep: KeepFull},
		{Job: js[4].Job, Eval: fakeEval(0, &second, nil), Cost: 800 * time.Millisecond, Keep: KeepFull},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	x := &Executor{Store: s, Jobs: 1}
	sum, err := x.ExecutePending(ctx, runs)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatal(err)
	}
	if sum != (Summary{Ran: 1}) || first.Load() != 1 || second.Load() != 0 {
		t.Errorf("summary %v, evaluations %d and %d; want the first run only: the second no longer fits when it would start",
			sum, first.Load(), second.Load())
	}
}

// TestRunsThisMachineCannotExecute: a run that Runnable refuses (a GPU run
// where none answers) is neither executed nor stored, so it stays missing
// for a machine that can, and counts as left elsewhere; once another
// machine's result is stored, it counts as cached.
func TestRunsThisMachineCannotExecute(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	var calls atomic.Int64
	js := jobs(6)
	runs := []Pending{js[0], js[4], js[5]}
	elsewhere := js[5].Job.Key
	x := &Executor{Store: s, Jobs: 2, Eval: fakeEval(0, &calls, nil),
		Runnable: func(c job.Config) error {
			if c.Seed == 5 {
				return errors.New("cuda: built without CUDA")
			}
			return nil
		}}
	sum, err := x.Execute(ctx, runs)
	if err != nil {
		t.Fatal(err)
	}
	if sum != (Summary{Ran: 2, Elsewhere: 1}) || calls.Load() != 2 {
		t.Errorf("summary %v after %d evaluations, want 2 run, 1 left elsewhere", sum, calls.Load())
	}
	if got, want := sum.String(), "0 cached, 2 run, 1 left for another machine"; got != want {
		t.Errorf("summary reads %q, want %q", got, want)
	}
	if st, err := s.Statuses(ctx, []string{elsewhere}); err != nil || len(st) != 0 {
		t.Errorf("the run left elsewhere is stored: %v %v", st, err)
	}
	// Another machine executes it (no Runnable there), then here it is cached.
	there := &Executor{Store: s, Jobs: 1, Eval: fakeEval(0, &calls, nil)}
	if sum, err := there.Execute(ctx, runs[2:]); err != nil || sum != (Summary{Ran: 1}) {
		t.Fatalf("the other machine: %v %v", sum, err)
	}
	if sum, err := x.Execute(ctx, runs); err != nil || sum != (Summary{Cached: 3}) {
		t.Errorf("after the other machine: %v %v, want 3 cached", sum, err)
	}
}

// TestKeepEmbedding: a run's embedding is stored only when a declaration of
// it keeps it, as its view or whole; of two declarations of one key, the one
// that keeps more decides. A view that fails keeps the embedding itself.
func TestKeepEmbedding(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	var calls atomic.Int64
	js := jobs(8)
	// firstRow is a view of the first item alone, labelled 7.
	firstRow := func(x *mat.Dense, labels []int, threads int) (*mat.Dense, []int, error) {
		return mat.DenseCopyOf(x.Slice(0, 1, 0, 2)), []int{7}, nil
	}
	fails := func(*mat.Dense, []int, int) (*mat.Dense, []int, error) { return nil, nil, errors.New("no view") }
	tests := []struct {
		name     string
		runs     []Pending
		wantRows int // 0: no embedding stored
		wantView bool
	}{
		{"kept whole", []Pending{js[0]}, 10, false},
		{"not kept", []Pending{{Job: js[4].Job}}, 0, false},
		{"kept by the second declaration", []Pending{{Job: js[5].Job}, js[5]}, 10, false},
		{"its view", []Pending{{Job: js[6].Job, Keep: KeepView, View: firstRow}}, 1, true},
		{"a view and the whole: the whole", []Pending{{Job: js[7].Job, Keep: KeepView, View: firstRow}, {Job: js[7].Job, Keep: KeepFull}}, 10, false},
		{"a view that fails: the whole", []Pending{{Job: js[3].Job, Keep: KeepView, View: fails}}, 10, false},
	}
	x := &Executor{Store: s, Jobs: 1, Eval: fakeEval(0, &calls, new(atomic.Bool))}
	for _, tc := range tests {
		if _, err := x.Execute(ctx, tc.runs); err != nil {
			t.Fatal(err)
		}
		rec, err := s.Get(ctx, tc.runs[0].Job.Key)
		if err != nil {
			t.Fatal(err)
		}
		rows := 0
		if e := rec.Outcome.Embedding; e != nil {
			rows, _ = e.Dims()
		}
		if rows != tc.wantRows || rec.View != tc.wantView || (tc.wantView && rec.Outcome.Labels[0] != 7) {
			t.Errorf("%s: %d rows stored, view %v, labels %v; want %d, %v", tc.name, rows, rec.View, rec.Outcome.Labels, tc.wantRows, tc.wantView)
		}
		if len(rec.Outcome.Trace) != 20 {
			t.Errorf("%s: %d epochs stored, want the curve's 20", tc.name, len(rec.Outcome.Trace))
		}
	}
	if _, err := x.Execute(ctx, []Pending{{Job: jobs(9)[8].Job, Keep: KeepView}}); err == nil || !strings.Contains(err.Error(), "no view function") {
		t.Errorf("a view without a view function: %v", err)
	}
}

// Declarations stored before views said whether to keep the embedding with
// a boolean: true reads as KeepFull. Unknown spellings are refused.
func TestKeepJSON(t *testing.T) {
	tests := []struct {
		json    string
		want    Keep
		wantErr bool
	}{
		{`true`, KeepFull, false},
		{`false`, KeepNone, false},
		{`"view"`, KeepView, false},
		{`"full"`, KeepFull, false},
		{`""`, KeepNone, false},
		{`"pca"`, KeepNone, true},
		{`1`, KeepNone, true},
	}
	for _, tc := range tests {
		var k Keep
		err := json.Unmarshal([]byte(tc.json), &k)
		if (err != nil) != tc.wantErr || k != tc.want {
			t.Errorf("%s: %q, %v; want %q, error %v", tc.json, k, err, tc.want, tc.wantErr)
		}
	}
}

// TestCheckpointsOfResumableRuns: a run of a resumable method (on the CPU,
// with its default optimiser) is given a checkpoint named by its key in the
// Checkpoints folder, others none; a run cut short leaves its file for the next execution, which goes
// on from it, and the file is removed once the run is stored. Under a
// deadline such a run starts although its cost exceeds the time left; a
// run without a checkpoint does not.
func TestCheckpointsOfResumableRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r.db-checkpoints")
	s := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	run := func(alg, backend, optimizer string) job.Canonical {
		c, err := job.Config{Dataset: "uniform", N: 10, Dim: 2, Lambda: 1, Algorithm: alg, Backend: backend, Optimizer: optimizer, Seed: 1}.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	resumable, plain, gpu := run("execresume", "cpu", ""), run("execfake", "cpu", ""), run("execresume", "cuda", "")
	named, lbfgs := run("execresume", "cpu", "adam"), run("execresume", "cpu", "lbfgs")
	x := &Executor{Store: s, Jobs: 1, Checkpoints: dir}
	for _, c := range []struct {
		j    job.Canonical
		want bool
	}{{resumable, true}, {plain, false}, {gpu, false}, {named, true}, {lbfgs, false}} {
		cp := x.checkpoint(c.j)
		if (cp != nil) != c.want || cp != nil && (cp.Path != filepath.Join(dir, c.j.Key) || cp.ID != c.j.Key) {
			t.Errorf("%s on %s with %q: checkpoint %+v, want one: %v", c.j.Config.Algorithm, c.j.Config.Backend, c.j.Config.Optimizer, cp, c.want)
		}
	}

	// The first execution writes its checkpoint and is cut short; the
	// second finds it.
	var found []bool
	eval := func(ctx context.Context, c job.Config, threads int) (*job.Outcome, error) {
		cp := job.CheckpointFrom(ctx)
		if cp == nil {
			return nil, errors.New("no checkpoint")
		}
		_, err := os.Stat(cp.Path)
		found = append(found, err == nil)
		if err != nil {
			if err := os.MkdirAll(filepath.Dir(cp.Path), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(cp.Path, []byte("state"), 0o644); err != nil {
				return nil, err
			}
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return &job.Outcome{Metrics: map[string]float64{job.TestError: 0.1}, StopReason: embed.StopConverged.String(), Threads: threads}, nil
	}
	short, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	p := Pending{Job: resumable, Eval: eval, Cost: time.Millisecond}
	if _, err := x.ExecutePending(short, []Pending{p}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want deadline exceeded", err)
	}
	if _, err := os.Stat(filepath.Join(dir, resumable.Key)); err != nil {
		t.Fatalf("the run cut short left no checkpoint: %v", err)
	}
	// Three minutes left, a cost of an hour: the resumable run starts, the
	// other does not.
	later, cancel2 := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel2()
	var plainCalls atomic.Int64
	q := Pending{Job: plain, Eval: fakeEval(0, &plainCalls, nil), Cost: time.Hour}
	p.Cost = time.Hour
	sum, err := x.ExecutePending(later, []Pending{q, p})
	if err != nil {
		t.Fatal(err)
	}
	if sum != (Summary{Ran: 1}) || plainCalls.Load() != 0 || len(found) != 2 || found[0] || !found[1] {
		t.Errorf("summary %v, %d calls of the run without a checkpoint, checkpoint found %v; want 1 run, 0 calls, [false true]", sum, plainCalls.Load(), found)
	}
	if _, err := os.Stat(filepath.Join(dir, resumable.Key)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stored run's checkpoint is still there (%v)", err)
	}
}

// TestRiskyRunsLeaveTheirTimeToResumableOnes: under a deadline, a run
// without a checkpoint whose cost fits the time left with less than
// costMargin to spare starts only where no resumable run comes after it to
// use the time; with the margin to spare, or alone, it starts. With
// WholeRuns (checkpoints that will not outlive the budget) the resumable
// run, which cannot finish, does not start, and leaves the time to it.
func TestRiskyRunsLeaveTheirTimeToResumableOnes(t *testing.T) {
	run := func(alg string) job.Canonical {
		c, err := job.Config{Dataset: "uniform", N: 10, Dim: 2, Lambda: 1, Algorithm: alg, Seed: 1}.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	plain, resumable := run("execfake"), run("execresume")
	for _, tc := range []struct {
		name string
		// plainCost is the cost of the run without a checkpoint, given
		// first, with 3 minutes left.
		plainCost      time.Duration
		withResumable  bool
		wholeRuns      bool
		wantPlain      bool
		wantResumables int64
	}{
		{name: "2.5 min of 3, a resumable run after it", plainCost: 150 * time.Second, withResumable: true, wantPlain: false, wantResumables: 1},
		{name: "2.5 min of 3, alone", plainCost: 150 * time.Second, wantPlain: true},
		{name: "1 min of 3, a resumable run after it", plainCost: time.Minute, withResumable: true, wantPlain: true, wantResumables: 1},
		{name: "4 min of 3, a resumable run after it", plainCost: 4 * time.Minute, withResumable: true, wantPlain: false, wantResumables: 1},
		{name: "2.5 min of 3, a resumable run after it, whole runs", plainCost: 150 * time.Second, withResumable: true, wholeRuns: true, wantPlain: true},
		{name: "4 min of 3, a resumable run after it, whole runs", plainCost: 4 * time.Minute, withResumable: true, wholeRuns: true, wantPlain: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := &Executor{Store: openStore(t, filepath.Join(t.TempDir(), "r.db")), Jobs: 1,
				Checkpoints: filepath.Join(t.TempDir(), "r.db-checkpoints"), WholeRuns: tc.wholeRuns}
			var plainCalls, resumableCalls atomic.Int64
			runs := []Pending{{Job: plain, Eval: fakeEval(0, &plainCalls, nil), Cost: tc.plainCost}}
			if tc.withResumable {
				runs = append(runs, Pending{Job: resumable, Eval: fakeEval(0, &resumableCalls, nil), Cost: time.Hour})
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			if _, err := x.ExecutePending(ctx, runs); err != nil {
				t.Fatal(err)
			}
			if (plainCalls.Load() == 1) != tc.wantPlain || resumableCalls.Load() != tc.wantResumables {
				t.Errorf("the run without a checkpoint ran %d times, the resumable one %d; want it started: %v, and %d",
					plainCalls.Load(), resumableCalls.Load(), tc.wantPlain, tc.wantResumables)
			}
		})
	}
}

// TestCheckpointEvery: the executor's interval between checkpoints reaches
// the fit, and a deadline starts a resumable run that will not finish only
// with two intervals left, enough for a checkpoint to keep something.
func TestCheckpointEvery(t *testing.T) {
	c, err := job.Config{Dataset: "uniform", N: 10, Dim: 2, Lambda: 1, Algorithm: "execresume", Seed: 1}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name        string
		every, left time.Duration
		wantStarted bool
	}{
		{name: "default interval, 3 min left", every: 0, left: 3 * time.Minute, wantStarted: true},
		{name: "default interval, 90 s left", every: 0, left: 90 * time.Second, wantStarted: false},
		{name: "10 s interval, 30 s left", every: 10 * time.Second, left: 30 * time.Second, wantStarted: true},
		{name: "10 min interval, 3 min left", every: 10 * time.Minute, left: 3 * time.Minute, wantStarted: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := &Executor{Store: openStore(t, filepath.Join(t.TempDir(), "r.db")), Jobs: 1,
				Checkpoints: filepath.Join(t.TempDir(), "r.db-checkpoints"), CheckpointEvery: tc.every}
			var got *embed.Checkpoint
			eval := func(ctx context.Context, c job.Config, threads int) (*job.Outcome, error) {
				got = job.CheckpointFrom(ctx)
				return &job.Outcome{Metrics: map[string]float64{job.TestError: 0.1}, StopReason: embed.StopConverged.String(), Threads: threads}, nil
			}
			ctx, cancel := context.WithTimeout(context.Background(), tc.left)
			defer cancel()
			sum, err := x.ExecutePending(ctx, []Pending{{Job: c, Eval: eval, Cost: time.Hour}})
			if err != nil {
				t.Fatal(err)
			}
			if started := sum.Ran == 1; started != tc.wantStarted {
				t.Errorf("a cost of an hour: started %v, want %v", started, tc.wantStarted)
			}
			if tc.wantStarted && (got == nil || got.Every != tc.every) {
				t.Errorf("the fit's checkpoint is %+v, want Every %v", got, tc.every)
			}
		})
	}
}
