package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oe-lab/oe/runner/store"
)

// tinyExperiment runs testdata/tiny.go at the smoke profile into dir (db
// results.db, reports reports/) and returns the script's path.
func tinyExperiment(t *testing.T, dir string) string {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "tiny.go"))
	if err != nil {
		t.Fatal(err)
	}
	_, stderr, code := cli(t, "run", script, "--profile", "smoke", "--db", filepath.Join(dir, "results.db"),
		"--reports", filepath.Join(dir, "reports"), "--quiet")
	if code != 0 {
		t.Fatalf("oerun run: %s", stderr)
	}
	return script
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	script := tinyExperiment(t, dir)
	report := filepath.Join(dir, "reports", "smoke", "tiny.md")
	before, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(before), "Profile **smoke**, 4 runs.") {
		t.Fatalf("report:\n%s", before)
	}
	stdout, stderr, code := cli(t, "report", script, "--profile", "smoke", "--db", filepath.Join(dir, "results.db"), "--reports", filepath.Join(dir, "reports"))
	if code != 0 || stdout != "" || !strings.Contains(stderr, "tiny.go: report "+report+" rebuilt from ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// A database without the runs.
	st, err := store.Open(filepath.Join(dir, "empty.db"))
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	base := []string{"report", script, "--reports", "reports"}
	with := func(args ...string) []string { return append(append([]string{}, base...), args...) }
	checkBadInputs(t, dir, []badInput{
		{"no script", []string{"report", "--db", "results.db"}, "no experiment script given", true},
		{"mistyped database", with("--db", "typo.db", "--profile", "smoke"), "store: stat typo.db: no such file or directory", false},
		{"database without the runs", with("--db", "empty.db", "--profile", "smoke"),
			"tiny.md shows 4 runs at profile smoke; the new report would show 0 runs, so it is not replaced (--force replaces it)", false},
		{"run flags on report", with("--jobs", "2"), "flag provided but not defined: -jobs", true},
		{"filter flags on report", with("--max-items", "10"), "flag provided but not defined: -max-items", true},
	})
	if after, _ := os.ReadFile(report); string(after) != string(before) {
		t.Errorf("a refused report changed the one there:\n%s", after)
	}
	// Another profile's report goes beside it.
	if _, stderr, code := cli(t, with("--db", "results.db", "--profile", "quick", "--quiet")...); code != 0 || stderr != "" {
		t.Errorf("--profile quick: exit %d, stderr %q", code, stderr)
	}
	if quick, _ := os.ReadFile(filepath.Join(dir, "reports", "quick", "tiny.md")); !strings.Contains(string(quick), "Profile **quick**, 4 runs.") {
		t.Errorf("the quick report:\n%s", quick)
	}
	if _, stderr, code := cli(t, with("--db", "empty.db", "--profile", "smoke", "--force", "--quiet")...); code != 0 || stderr != "" {
		t.Errorf("--force: exit %d, stderr %q", code, stderr)
	}
	if after, _ := os.ReadFile(report); !strings.Contains(string(after), "Profile **smoke**, 0 of 4 runs done; 4 missing (estimated cost ") {
		t.Errorf("--force did not replace the report:\n%s", after)
	}
}

func TestExportCommand(t *testing.T) {
	dir := t.TempDir()
	script := tinyExperiment(t, dir)
	out := filepath.Join(dir, "csv")
	args := []string{"export", "--experiment", "tiny", "--profile", "smoke", "--db", filepath.Join(dir, "results.db"),
		"--experiments", filepath.Dir(script), "--out", out}
	stdout, stderr, code := cli(t, args...)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if got := strings.Join(files(t, out), " "); got != "runs.csv table-01-what-was-run.csv table-02-test-triplet-error.csv" {
		t.Errorf("exported %s", got)
	}
	runs := readCSV(t, filepath.Join(out, "runs.csv"))
	header := strings.Join(runs[0], ",")
	for _, col := range []string{"key,status,error,dataset,stands_in_for,n,dim,", ",algorithm,", ",test_error,", ",train_error,", ",procrustes,"} {
		if !strings.Contains(header, col) {
			t.Errorf("runs.csv header lacks %q: %s", col, header)
		}
	}
	if len(runs) != 5 || runs[1][1] != "ok" || runs[1][3] != "uniform" {
		t.Errorf("runs.csv has %d rows, first %v; want the 4 runs", len(runs)-1, runs[1])
	}
	table := readCSV(t, filepath.Join(out, "table-02-test-triplet-error.csv"))
	if len(table) != 3 || table[0][0] != `algorithm \ dataset` || table[1][0] != "soe" || !strings.Contains(table[1][1], "±") {
		t.Errorf("test error table %v", table)
	}
	// Exporting again replaces the folder.
	if _, stderr, code := cli(t, append(args, "--quiet")...); code != 0 || stderr != "" {
		t.Errorf("second export: exit %d, %q", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("staging folder %s left behind", e.Name())
		}
	}

	base := []string{"export", "--db", "results.db", "--experiments", filepath.Dir(script), "--out", "x"}
	with := func(args ...string) []string { return append(append([]string{}, base...), args...) }
	checkBadInputs(t, dir, []badInput{
		{"no experiment", base, "--experiment is required", true},
		{"not a name", with("--experiment", "../tiny"), `--experiment "../tiny" is not a script name`, true},
		{"mistyped database", with("--experiment", "tiny", "--profile", "smoke", "--db", "typo.db"), "store: stat typo.db: no such file or directory", false},
		{"not run at the profile", with("--experiment", "tiny", "--profile", "quick"), "tiny has not run at profile quick in results.db", false},
		{"unknown experiment", with("--experiment", "nosuch", "--profile", "smoke"), "nosuch has not run at profile smoke", false},
	})
}
