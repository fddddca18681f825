package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/store"
)

// TestDeclare: Declare lists the runs a script would execute, its
// sections' first, executing nothing and writing nothing.
func TestDeclare(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	reports := filepath.Join(dir, "reports")
	var calls atomic.Int64
	opt := func(script string) Options {
		return Options{Script: script, DB: db, Reports: reports, Profile: "smoke", Eval: fakeEval(&calls),
			Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)}
	}
	steps := []struct {
		name   string
		script string
		before func(t *testing.T)
		want   int
	}{
		{"a missing database: every run", "testdata/demo.go", nil, 6},
		{"a section that has not run is declared first", "testdata/reads_demo.go", nil, 6},
		{"stored runs are not declared", "testdata/reads_demo.go", func(t *testing.T) {
			if _, err := Run(context.Background(), opt("testdata/demo.go")); err != nil {
				t.Fatal(err)
			}
		}, 0},
	}
	for _, st := range steps {
		if st.before != nil {
			st.before(t)
		}
		before := calls.Load()
		d, err := Declare(context.Background(), opt(st.script))
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		runs := d.Runs
		if len(runs) != st.want || calls.Load() != before {
			t.Errorf("%s: %d runs declared after %d evaluations, want %d after none", st.name, len(runs), calls.Load()-before, st.want)
		}
		for _, r := range runs {
			if r.Experiment != "demo" || r.Eval == nil || r.Job.Config.Algorithm != "runnerfake" {
				t.Errorf("%s: run %.12s declared by %q (%s), want demo's runnerfake with an evaluation", st.name, r.Job.Key, r.Experiment, r.Job.Config.Algorithm)
			}
		}
		if _, err := os.Stat(filepath.Join(reports, "smoke", "reads_demo.md")); err == nil {
			t.Errorf("%s: Declare wrote a report", st.name)
		}
		if _, err := os.Stat(db); st.before == nil && err == nil {
			t.Errorf("%s: Declare created the database", st.name)
		}
	}
}

// TestDeferLeavesTheExecutionUnrecorded: with Defer, Run executes nothing,
// writes the report and records the script's execution only once every run
// it declares is stored.
func TestDeferLeavesTheExecutionUnrecorded(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	var calls atomic.Int64
	var deferred []execute.Pending
	opt := Options{Script: "testdata/demo.go", DB: db, Reports: dir, Profile: "smoke", Eval: fakeEval(&calls),
		Defer: func(p []execute.Pending) { deferred = append(deferred, p...) }, Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)}
	recorded := func() bool {
		st, err := store.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		_, ok, err := st.LastExecution(context.Background(), "demo", "smoke")
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Deferred != 6 || len(deferred) != 6 || calls.Load() != 0 || recorded() {
		t.Errorf("%d deferred (%d handed over), %d evaluations, recorded %v: want 6, none, not recorded", res.Deferred, len(deferred), calls.Load(), recorded())
	}
	if _, err := os.Stat(res.Report); err != nil {
		t.Errorf("no report: %v", err)
	}
	x := &execute.Executor{Jobs: 1}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	x.Store = st
	_, err = x.ExecutePending(context.Background(), deferred)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if res, err = Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	if res.Deferred != 0 || !recorded() {
		t.Errorf("with every run stored: %d deferred, recorded %v; want 0 and recorded", res.Deferred, recorded())
	}
}

// ExampleDeclare lists the runs a script would execute against a database
// that holds none, executing nothing.
func ExampleDeclare() {
	dir, _ := os.MkdirTemp("", "declare")
	defer os.RemoveAll(dir)
	d, err := Declare(context.Background(), Options{Script: "testdata/demo.go", DB: filepath.Join(dir, "results.db"), Profile: "smoke"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range d.Runs[:3] {
		c := r.Job.Config
		fmt.Printf("%s: %s on %d %s points, λ = %v, rep %d\n", r.Experiment, c.Algorithm, c.N, c.Dataset, c.Lambda, c.Rep)
	}
	fmt.Println(len(d.Runs), "runs")
	// Output:
	// demo: runnerfake on 20 uniform points, λ = 1, rep 0
	// demo: runnerfake on 20 uniform points, λ = 1, rep 1
	// demo: runnerfake on 20 uniform points, λ = 2, rep 0
	// 6 runs
}

// TestDeclareFollowsStoredResults: a run that a script declares from
// another's result is declared once that result is stored, as the script
// executed would declare it.
func TestDeclareFollowsStoredResults(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	var calls atomic.Int64
	opt := Options{Script: "testdata/follows.go", DB: db, Profile: "smoke", Eval: fakeEval(&calls),
		Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)}
	for i, wantDim := range []int{2, 3, 0} {
		d, err := Declare(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		runs := d.Runs
		if wantDim == 0 {
			if len(runs) != 0 {
				t.Errorf("declaration %d: %d runs, want none: both are stored", i, len(runs))
			}
			break
		}
		if len(runs) != 1 || runs[0].Job.Config.Dim != wantDim {
			t.Fatalf("declaration %d: %d runs (%v), want the run of d = %d alone", i, len(runs), runs, wantDim)
		}
		st, err := store.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		x := &execute.Executor{Store: st, Jobs: 1}
		_, err = x.ExecutePending(context.Background(), runs)
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if calls.Load() != 2 {
		t.Errorf("%d evaluations, want 2: each run once", calls.Load())
	}
}

// TestDeclareAwaitsChecks: the groups of runs that a script's checks
// compare (exp's Check and EveryGroup) are declared with the runs they
// still lack, under the check's name, until every run of a group is stored.
func TestDeclareAwaitsChecks(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	emptyDB(t, db)
	var calls atomic.Int64
	opt := Options{Script: "testdata/checks.go", DB: db, Profile: "smoke", Eval: fakeEval(&calls)}
	// awaited returns the groups Declare says the check waits for, as
	// "check, group: the λ of its runs ×count", and the runs declared.
	awaited := func() ([]string, []execute.Pending) {
		t.Helper()
		d, err := Declare(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		lambda := map[string]float64{}
		for _, r := range d.Runs {
			lambda[r.Job.Key] = r.Job.Config.Lambda
		}
		var got []string
		for _, a := range d.Awaited {
			var lambdas []string
			for _, k := range a.Keys {
				lambdas = append(lambdas, fmt.Sprint(lambda[k]))
			}
			got = append(got, fmt.Sprintf("%s, %s: %v", a.Check, a.Group, lambdas))
		}
		return got, d.Runs
	}
	got, runs := awaited()
	want := []string{"test error below 0.5, λ 1: [1 1]", "test error below 0.5, λ 2: [2 2]", "test error below 0.5, λ 4: [4 4]"}
	if !slices.Equal(got, want) {
		t.Errorf("with no run stored the check awaits %q, want %q", got, want)
	}
	// Store one run of λ = 1 and both of λ = 2 (the runner's fake ones).
	var some []execute.Pending
	stored := map[float64]int{}
	for _, r := range runs {
		if c := r.Job.Config; c.Algorithm == "runnerfake" && (c.Lambda == 2 || (c.Lambda == 1 && stored[1] == 0)) {
			stored[c.Lambda]++
			some = append(some, r)
		}
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&execute.Executor{Store: st, Jobs: 1}).ExecutePending(context.Background(), some); err != nil {
		t.Fatal(err)
	}
	st.Close()
	got, _ = awaited()
	want = []string{"test error below 0.5, λ 1: [1]", "test error below 0.5, λ 4: [4 4]"}
	if !slices.Equal(got, want) {
		t.Errorf("with λ = 2 stored and one run of λ = 1 the check awaits %q, want %q", got, want)
	}
}
