package execute

import (
	"bytes"
	"context"
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
}

// jobs returns n runs that differ in their seed.
func jobs(n int) []job.Canonical {
	out := make([]job.Canonical, n)
	for i := range out {
		c, err := job.Config{Dataset: "uniform", N: 10, Dim: 2, Lambda: 1, Algorithm: "execfake", Seed: uint64(i)}.Normalize()
		if err != nil {
			panic(err)
		}
		out[i] = c
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
		trace := make([]embed.Epoch, 50)
		for i := range trace {
			trace[i] = embed.Epoch{Epoch: i + 1, Loss: 1, TrainError: 0.1}
		}
		return &job.Outcome{Metrics: map[string]float64{job.TestError: 0.1 * float64(c.Seed)}, Trace: trace,
			StopReason: embed.StopMaxEpochs, Embedding: emb, Threads: threads}, nil
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
		if err := s.DB().QueryRow("SELECT error FROM runs WHERE key = ?", js[seed].Key).Scan(&e); err != nil {
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
		(SELECT count(*) FROM epochs e WHERE e.run_key = r.key) != 50 OR
		NOT EXISTS (SELECT 1 FROM metrics m WHERE m.run_key = r.key) OR
		NOT EXISTS (SELECT 1 FROM embeddings b WHERE b.run_key = r.key))`).Scan(&partial)
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
