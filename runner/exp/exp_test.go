package exp

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oe-lab/oe/runner/internal/session"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/report"
	"github.com/oe-lab/oe/runner/store"
)

func result(alg, dataset string, lambda float64, rep int, status string, testErr float64) Result {
	return Result{Run: Run{Dataset: dataset, Algorithm: alg, Lambda: lambda, Rep: rep, Dim: 2}, Used: dataset,
		Status: status, Metrics: map[string]float64{TestError: testErr}}
}

func sample() Results {
	return Results{
		result("soe", "char", 2, 0, OK, 0.10), result("soe", "char", 2, 1, OK, 0.20),
		result("ste", "char", 2, 0, Failed, math.NaN()),
		result("soe", "usps", 2, 0, OK, 0.05),
		result("ste", "usps", 2, 0, Missing, math.NaN()),
	}
}

func TestCells(t *testing.T) {
	rs := sample()
	tests := []struct {
		name string
		sub  Results
		want string
	}{
		{"mean ± sd over reps", rs.Where("algorithm", "soe").Where("dataset", "char"), "0.150 ± 0.071"},
		{"single value", rs.Where("algorithm", "soe").Where("dataset", "usps"), "0.050"},
		{"failed", rs.Where("algorithm", "ste").Where("dataset", "char"), "failed"},
		{"missing", rs.Where("algorithm", "ste").Where("dataset", "usps"), "missing"},
		{"no runs", rs.Where("algorithm", "tste"), "—"},
	}
	for _, tc := range tests {
		if got := tc.sub.Cell(TestError); got != tc.want {
			t.Errorf("%s: Cell = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestPivotTable(t *testing.T) {
	got := sample().Table("algorithm", "dataset", TestError)
	want := &Table{Header: []string{"algorithm \\ dataset", "char", "usps"},
		Rows: [][]string{{"soe", "0.150 ± 0.071", "0.050"}, {"ste", "failed", "missing"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Table = %+v, want %+v", got, want)
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		metric string
		v      float64
		want   string
	}{
		{TestError, 0.03125, "0.031"},
		{FitSeconds, 0.5, "0.50 s"},
		{FitSeconds, 0.1, "0.10 s"},
		{ConvergeSeconds, 0.042, "42 ms"},
		{ConvergeSeconds, 0.0043, "4.3 ms"},
		{FitSeconds, 42, "42 s"},
		{ConvergeSeconds, 672, "11.2 min"},
		{ConvergeSeconds, 24120, "6.7 h"},
		{Epochs, 150, "150"},
		{Items, 320, "320"},
		{ExtensionItems, 80, "80"},
		{ExtensionKNNError, 0.3, "0.300"},
		{ExtensionSeconds, 3.5, "3.50 s"},
		{TestError, math.NaN(), "—"},
	}
	for _, tc := range tests {
		if got := Format(tc.metric, tc.v); got != tc.want {
			t.Errorf("Format(%s, %v) = %q, want %q", tc.metric, tc.v, got, tc.want)
		}
	}
}

func TestFieldsAndMistakes(t *testing.T) {
	r := Result{Run: Run{Dataset: "mnist", Algorithm: "soe", Params: map[string]float64{"b": 2, "a": 0.5}}, Used: "fmnist", Status: OK,
		Metrics: map[string]float64{}}
	fields := map[string]string{"dataset": "mnist (fmnist)", "lambda": "2", "noise": "none", "backend": "cpu", "params": "a=0.5,b=2"}
	for f, want := range fields {
		if got := r.Field(f); got != want {
			t.Errorf("Field(%q) = %q, want %q", f, got, want)
		}
	}
	if !math.IsNaN(r.Value(KNNError)) {
		t.Error("an unmeasured metric is not NaN")
	}
	for name, f := range map[string]func(){
		"unknown field":  func() { r.Field("colour") },
		"unknown metric": func() { r.Value("accuracy") },
		"unknown label":  func() { Label("accuracy") },
		"zero reps":      func() { Repeat(nil, 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

func TestReadTSV(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "t.tsv"), []byte("# comment\nalgorithm\tdataset\terr\nSOE\tCHAR\t0.03\nSTE\tCHAR\t0.04\n"), 0o644)
	e := &Experiment{s: &session.Session{ScriptDir: dir}}
	tsv := e.ReadTSV("t.tsv")
	if got := tsv.Get("err", "algorithm", "ste", "dataset", "char"); got != "0.04" {
		t.Errorf("Get = %q, want 0.04", got)
	}
	if got := tsv.Get("err", "algorithm", "tste"); got != "" {
		t.Errorf("Get of an absent row = %q", got)
	}
	os.WriteFile(filepath.Join(dir, "bad.tsv"), []byte("a\tb\n1\n"), 0o644)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "bad.tsv:2: 1 cells, the header has 2") {
			t.Errorf("ragged TSV: panic %v", r)
		}
	}()
	e.ReadTSV("bad.tsv")
}

// Repeat numbers the copies; the first alone keeps the view of its
// embedding for the figure that draws it.
func ExampleRepeat() {
	runs := Repeat([]Run{{Dataset: "char", Algorithm: "soe", Dim: 30, KeepEmbedding: KeepView}, {Dataset: "char", Algorithm: "ste", Dim: 30}}, 2)
	for _, r := range runs {
		fmt.Printf("%s rep %d keeps of its embedding: %v\n", r.Algorithm, r.Rep, r.KeepEmbedding)
	}
	// Output:
	// soe rep 0 keeps of its embedding: view
	// soe rep 1 keeps of its embedding: none
	// ste rep 0 keeps of its embedding: none
	// ste rep 1 keeps of its embedding: none
}

func TestLabels(t *testing.T) {
	for _, m := range metricNames {
		if Label(m) == "" {
			t.Errorf("metric %s has no label", m)
		}
	}
	// The figures' axis labels before Label existed, which the reports keep.
	for m, want := range map[string]string{TrainError: "train triplet error", Procrustes: "Procrustes disparity",
		KNNError: "kNN error", FitSeconds: "wall time of the fit (s)", ConvergeSeconds: "time until convergence (s)"} {
		if got := Label(m); got != want {
			t.Errorf("Label(%s) = %q, want %q", m, got, want)
		}
	}
}

// TestFieldN: a run's n is the number of items it loads, also where it asks
// for all of them (N = 0): the dataset's paper size (lib/datasets' Spec.N),
// or on a stand-in asked for more than it holds, all of the stand-in's
// items. Before, such runs sat at n = 0, the smallest of an n axis.
func TestFieldN(t *testing.T) {
	for _, c := range []struct {
		name string
		r    Result
		want string
	}{
		{"declared n", Result{Run: Run{Dataset: "gmm", N: 500}, Used: "gmm"}, "500"},
		{"declared n on a stand-in", Result{Run: Run{Dataset: "usps", N: 7291}, Used: "fmnist"}, "7291"},
		{"all of a real dataset", Result{Run: Run{Dataset: "char"}, Used: "char"}, "1797"},
		{"all of a synthetic dataset", Result{Run: Run{Dataset: "uniform"}, Used: "uniform"}, "10000"},
		{"all of a stand-in", Result{Run: Run{Dataset: "covtype"}, Used: "fmnist"}, "60000"},
		{"not yet loaded", Result{Run: Run{Dataset: "char"}}, "1797"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.r.Field("n"); got != c.want {
				t.Errorf("Field(n) = %s, want %s", got, c.want)
			}
		})
	}
}

// TestDescribeRuns: one row per declared setting, whose n is the number of
// items its runs embedded, or while none has run the number they will load
// (uniform's paper size for all items); the counts split by status.
func TestDescribeRuns(t *testing.T) {
	char := Run{Dataset: "char", Dim: 30, Algorithm: "soe"}
	gmm := Run{Dataset: "gmm", N: 500, Dim: 2, Algorithm: "soe"}
	rs := Results{
		ok(char, map[string]float64{Items: 1797}),
		{Run: Run{Dataset: "char", Dim: 30, Algorithm: "ste"}, Used: "char", Status: Missing},
		{Run: Run{Dataset: "char", Dim: 30, Algorithm: "ckl"}, Used: "char", Status: Failed},
		{Run: Run{Dataset: "uniform", Dim: 2, Algorithm: "soe"}, Used: "uniform", Status: Missing},
		{Run: gmm, Used: "gmm", Status: Missing},
	}
	e := &Experiment{s: &session.Session{Profile: "quick"}, doc: &report.Doc{}}
	e.describeRuns(rs)
	if len(e.doc.Sections) != 1 || e.doc.Sections[0].Table == nil {
		t.Fatalf("sections %+v, want one with a table", e.doc.Sections)
	}
	var got []string
	for _, row := range e.doc.Sections[0].Table.Rows {
		got = append(got, strings.Join([]string{row[0], row[1], row[6], row[8]}, " | "))
	}
	want := []string{
		"char | 1797 | soe, ste, ckl | 1 / 1 / 1",
		"uniform | 10000 | soe | 0 / 0 / 1",
		"gmm | 500 | soe | 0 / 0 / 1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestFiguresWaitingForRuns: figures none of whose runs is done are not
// drawn but listed together in one note; a figure with a done run is drawn.
func TestFiguresWaitingForRuns(t *testing.T) {
	e := &Experiment{s: &session.Session{Profile: "paper"}, doc: &report.Doc{}}
	e.Note("an earlier note")
	missing := Results{{Run: Run{Dataset: "usps", Algorithm: "soe", Dim: 2}, Status: Missing}}
	done := Results{ok(Run{Dataset: "char", Algorithm: "soe", Dim: 2}, map[string]float64{TestError: 0.1})}
	e.Lines(LinePlot{Title: "usps: test error", Results: missing, X: "dim", Y: TestError, Lines: "algorithm"})
	e.Bars(BarPlot{Title: "usps: bars", Results: missing, Groups: "dataset", Bars: "algorithm", Y: TestError})
	e.Lines(LinePlot{Title: "char: test error", Results: done, X: "dim", Y: TestError, Lines: "algorithm"})
	want := []string{"an earlier note", `2 figures wait for their runs (none done yet): usps: test error; usps: bars.`}
	if !slices.Equal(e.doc.Notes, want) {
		t.Errorf("notes %q, want %q", e.doc.Notes, want)
	}
	if e.figures != 1 {
		t.Errorf("%d figures drawn, want 1 (char's)", e.figures)
	}
}

// TestSharedRunsCountOnce: sections share runs (one configuration, one
// key), so a script that reads two of them counts each run once in its
// report's done, missing and estimated cost.
func TestSharedRunsCountOnce(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	estimate := func(c job.Config) time.Duration { return time.Duration(c.N) * time.Second }
	e := &Experiment{s: &session.Session{Profile: "paper", Store: st, DeclareOnly: true, Estimate: estimate}, doc: &report.Doc{}}
	run := func(key string, n int) declared {
		r := Run{Dataset: "uniform", N: n, Dim: 2, Algorithm: "soe"}
		return declared{run: r, used: "uniform", job: job.Canonical{Key: key, Config: job.Config{Dataset: "uniform", N: n, Algorithm: "soe"}}}
	}
	shared := run("shared", 20)
	e.collect(context.Background(), []declared{run("first", 10), shared}, "first runs")
	e.collect(context.Background(), []declared{shared, run("second", 40)}, "second runs")
	if e.doc.Runs != 0 || e.doc.Missing != 3 || e.doc.MissingCost != 70*time.Second {
		t.Errorf("%d done, %d missing costing %v; want 0, 3 costing 1m10s", e.doc.Runs, e.doc.Missing, e.doc.MissingCost)
	}
	if len(e.results) != 4 {
		t.Errorf("%d results, want 4 (each read returns all it declares)", len(e.results))
	}
}
