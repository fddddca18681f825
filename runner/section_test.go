package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/store"
)

// TestSectionReadsTheSectionsRuns has reads_demo.go read the runs of
// demo.go through exp's Section while demo.go is missing, changes and
// declares fewer runs: Section executes demo.go when its runs are not those
// it declares now, and otherwise reads them without executing anything.
func TestSectionReadsTheSectionsRuns(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"demo.go", "reads_demo.go"} {
		copyFile(t, filepath.Join("testdata", f), filepath.Join(dir, f))
	}
	demo := filepath.Join(dir, "demo.go")
	db := filepath.Join(dir, "r.db")
	var calls atomic.Int64
	steps := []struct {
		name   string
		before func(t *testing.T) // changes the script or the database first
		// wantWhy is why demo.go is executed first ("": it is not).
		wantWhy, wantSum, wantOut string
		wantCalls                 int64
	}{
		{"a missing section is executed first", nil,
			"which has not run at profile smoke", "0 cached, 6 run", "demo: 6 runs, 6 ok, lambdas [1 2 4], n [20]", 6},
		{"then its runs are read, nothing executed", nil,
			"", "6 cached, 0 run", "demo: 6 runs, 6 ok, lambdas [1 2 4], n [20]", 6},
		{"a changed section is executed again", func(t *testing.T) { appendFile(t, demo, "\n// A comment changes the file.\n") },
			"which changed since it ran at profile smoke", "6 cached, 0 run", "demo: 6 runs, 6 ok, lambdas [1 2 4], n [20]", 6},
		{"runs the section no longer declares are not read", func(t *testing.T) { replaceInFile(t, demo, "{1, 2, 4}", "{1, 2}") },
			"which changed since", "4 cached, 0 run", "demo: 4 runs, 4 ok, lambdas [1 2], n [20]", 6},
		{"runs of another algorithm version make it run again", func(t *testing.T) { setAlgorithmVersion(t, db, 0) },
			"which ran runnerfake version 0, which this build replaced by version 1", "4 cached, 0 run", "demo: 4 runs", 6},
	}
	for _, st := range steps {
		if st.before != nil {
			st.before(t)
		}
		var stdout, stderr bytes.Buffer
		res, err := Run(context.Background(), Options{Script: filepath.Join(dir, "reads_demo.go"), DB: db, Reports: filepath.Join(dir, "reports"),
			Profile: "smoke", Eval: fakeEval(&calls), Stdout: &stdout, Stderr: &stderr})
		if err != nil {
			t.Fatalf("%s: %v\n%s", st.name, err, stderr.String())
		}
		ran := strings.Contains(stderr.String(), "reads_demo needs the runs of demo")
		if ran != (st.wantWhy != "") || !strings.Contains(stderr.String(), st.wantWhy) {
			t.Errorf("%s: demo.go executed first: %v, want %v (%q); stderr:\n%s", st.name, ran, st.wantWhy != "", st.wantWhy, stderr.String())
		}
		if res.Summary.String() != st.wantSum || calls.Load() != st.wantCalls || !strings.Contains(stdout.String(), st.wantOut) {
			t.Errorf("%s: %v after %d evaluations, printed %q; want %s after %d, %q", st.name, res.Summary, calls.Load(), stdout.String(),
				st.wantSum, st.wantCalls, st.wantOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "reports", "smoke", "demo.md")); err != nil {
		t.Errorf("the executed section wrote no report: %v", err)
	}
}

// TestSectionWhereNothingIsExecuted: oerun report, and the reports that
// oerun run --budget writes (Defer), execute no section: Section reads the
// runs the section declares now, as far as the database holds them — none,
// some, all — and the reading script's report says how many are done and
// missing, with their cost where estimated. The reading script's execution
// is recorded only once nothing it reads is missing.
func TestSectionWhereNothingIsExecuted(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	emptyDB(t, db)
	var calls atomic.Int64
	storeMissing := func(k int) { // stores the first k of demo's runs the database lacks
		t.Helper()
		d, err := Declare(context.Background(), Options{Script: "testdata/demo.go", DB: db, Profile: "smoke", Eval: fakeEval(&calls)})
		if err != nil {
			t.Fatal(err)
		}
		runs := d.Runs
		st, err := store.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if _, err := (&execute.Executor{Store: st, Jobs: 1}).ExecutePending(context.Background(), runs[:k]); err != nil {
			t.Fatal(err)
		}
	}
	recorded := func() bool {
		st, err := store.OpenReadOnly(db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		_, ok, err := st.LastExecution(context.Background(), "reads_demo", "smoke")
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	steps := []struct {
		name       string
		store      int // demo's runs stored first
		reportOnly bool
		wantOut    string
		wantMD     []string
		recorded   bool
	}{
		{"report, none stored", 0, true, "demo: 6 runs, 0 ok", []string{"Profile **smoke**, 0 of 6 runs done; 6 missing (estimated cost 6.0s).",
			"testdata/demo.go has not run at profile smoke: its runs are read as it declares them now, as far as the results database holds them.",
			"6 of 6 demo runs are not in the results database yet"}, false},
		{"report, some stored", 2, true, "demo: 6 runs, 2 ok", []string{"Profile **smoke**, 2 of 6 runs done; 4 missing (estimated cost 4.0s).",
			"4 of 6 demo runs are not in the results database yet"}, false},
		{"budget's reports, some stored", 0, false, "demo: 6 runs, 2 ok", []string{"Profile **smoke**, 2 of 6 runs done; 4 missing (estimated cost 4.0s)."}, false},
		{"budget's reports, all stored", 4, false, "demo: 6 runs, 6 ok", []string{"Profile **smoke**, 6 runs."}, true},
	}
	for _, st := range steps {
		storeMissing(st.store)
		before := calls.Load()
		var stdout bytes.Buffer
		opt := Options{Script: "testdata/reads_demo.go", DB: db, Reports: dir, Profile: "smoke", ReportOnly: st.reportOnly,
			Eval: fakeEval(&calls), Stdout: &stdout, Stderr: new(bytes.Buffer), Force: true,
			Estimate: func(job.Config) time.Duration { return time.Second }}
		if !st.reportOnly {
			opt.Defer = func([]execute.Pending) {}
		}
		if _, err := Run(context.Background(), opt); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		md, _ := os.ReadFile(filepath.Join(dir, "smoke", "reads_demo.md"))
		if calls.Load() != before || !strings.Contains(stdout.String(), st.wantOut) {
			t.Errorf("%s: %d evaluations, printed %q; want none, %q", st.name, calls.Load()-before, stdout.String(), st.wantOut)
		}
		for _, want := range st.wantMD {
			if !strings.Contains(string(md), want) {
				t.Errorf("%s: report lacks %q:\n%s", st.name, want, md)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "smoke", "demo.md")); err == nil {
			t.Errorf("%s: demo.go was executed, or its report written", st.name)
		}
		if got := recorded(); got != st.recorded {
			t.Errorf("%s: reads_demo's execution recorded %v, want %v", st.name, got, st.recorded)
		}
	}
}

// TestMembershipIsRecordedOnCompletion: a script's runs are recorded when
// it completes, not under oerun report.
func TestMembershipIsRecordedOnCompletion(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	emptyDB(t, db)
	var calls atomic.Int64
	for _, reportOnly := range []bool{true, false} {
		if _, err := Run(context.Background(), Options{Script: "testdata/demo.go", DB: db, Reports: dir, Profile: "smoke",
			ReportOnly: reportOnly, Eval: fakeEval(&calls), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)}); err != nil {
			t.Fatal(err)
		}
		st, err := store.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		members, err := st.Members(context.Background(), "demo", "smoke")
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: 0, false: 6}[reportOnly]; len(members) != want {
			t.Errorf("report only %v: %d runs recorded, want %d", reportOnly, len(members), want)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, text...), 0o644); err != nil {
		t.Fatal(err)
	}
}

func replaceInFile(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s has no %q", path, old)
	}
	if err := os.WriteFile(path, bytes.ReplaceAll(b, []byte(old), []byte(new)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// setAlgorithmVersion overwrites the algorithm version stored with every
// run, as if another build had computed them.
func setAlgorithmVersion(t *testing.T, db string, v int) {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.DB().Exec("UPDATE runs SET algorithm_version = ?", v); err != nil {
		t.Fatal(err)
	}
}
