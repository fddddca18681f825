package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/oe-lab/oe/lib/algorithms" // the real methods, for the scripts
	"github.com/oe-lab/oe/runner/store"
)

// TestExperimentScriptsSmoke runs every script of experiments/ at the smoke
// profile with the real algorithms and evaluation, as CI does, and checks
// that each writes its report. The reproduction script runs first, on an
// empty database: it must execute the section scripts it reads (and nothing
// else), so that each section then finds all its runs cached, and the runs
// it checked must be exactly the ones the sections declared.
func TestExperimentScriptsSmoke(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("..", "experiments", "*.go"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no experiment scripts found (%v)", err)
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "results.db")
	run := func(t *testing.T, script string) Result {
		t.Helper()
		var out bytes.Buffer
		res, err := Run(context.Background(), Options{Script: script, DB: db,
			Reports: filepath.Join(dir, "reports"), Profile: "smoke", Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		// A script may declare nothing only where all its data is missing
		// (CI without OE_DATA: the material comparisons have no synthetic
		// fallback).
		if res.Summary.Ran+res.Summary.Cached == 0 && len(res.SkippedForData) == 0 {
			t.Errorf("%s declared no runs", script)
		}
		if st, err := os.Stat(res.Report); err != nil || st.Size() == 0 {
			t.Errorf("no report: %v", err)
		}
		return res
	}
	reproduction := filepath.Join("..", "experiments", "reproduction.go")
	run(t, reproduction)
	required := executed(t, db)
	delete(required, "reproduction")
	if len(required) == 0 {
		t.Fatal("reproduction.go read no section's runs")
	}
	for _, script := range scripts {
		t.Run(filepath.Base(script), func(t *testing.T) {
			res := run(t, script)
			name := strings.TrimSuffix(filepath.Base(script), ".go")
			if required[name] && res.Summary.Ran > 0 {
				t.Errorf("%s executed %d runs that reproduction.go, which required it, did not execute", name, res.Summary.Ran)
			}
		})
	}

	// The runs reproduction.go read are the union of those its sections
	// declared: all the runs of each section that completed, and of one
	// that could not (its data files are not here), the runs it declares.
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	keys := func(experiment string) map[string]bool {
		m, err := st.Members(context.Background(), experiment, "smoke")
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, x := range m {
			out[x.Key] = true
		}
		return out
	}
	read, declared := keys("reproduction"), map[string]bool{}
	for name := range required {
		for k := range keys(name) {
			declared[k] = true
		}
	}
	for k := range declared {
		if !read[k] {
			t.Errorf("reproduction.go did not read run %.12s of a section it required", k)
		}
	}
	anySection := map[string]bool{}
	for _, script := range scripts {
		if script == reproduction {
			continue
		}
		d, err := Declare(context.Background(), Options{Script: script, DB: filepath.Join(dir, "none.db"), Profile: "smoke"})
		if err != nil {
			t.Fatal(err)
		}
		runs := d.Runs
		for _, r := range runs {
			anySection[r.Job.Key] = true
		}
	}
	for k := range read {
		if !anySection[k] {
			t.Errorf("reproduction.go read run %.12s, which no section declares", k)
		}
	}
}

// executed returns the scripts that completed at the smoke profile.
func executed(t *testing.T, db string) map[string]bool {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.DB().Query("SELECT experiment FROM experiments WHERE profile = 'smoke'")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		out[name] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
