package runner

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/report"
	"github.com/oe-lab/oe/runner/store"
)

// gpuAnswers is what runnergpufake's cuda backend says of this machine:
// nil where a GPU answers (TestRunsLeftForAnotherMachine sets it).
var gpuAnswers atomic.Pointer[error]

func init() {
	embed.Register(embed.Info{Name: "runnerfake", Version: 1, Params: embed.Params{},
		New: func(embed.Params) (embed.Algorithm, error) { return nil, errors.New("evaluated by fakeEval") }})
	embed.Register(embed.Info{Name: "runnergpufake", Version: 1, Params: embed.Params{},
		New: func(embed.Params) (embed.Algorithm, error) { return nil, errors.New("evaluated by fakeEval") },
		Backends: map[embed.Backend]func() error{embed.BackendCUDA: func() error {
			if err := gpuAnswers.Load(); err != nil {
				return *err
			}
			return nil
		}}})
	noGPU := errors.New("no GPU here")
	gpuAnswers.Store(&noGPU)
}

// fakeEval returns an error falling with λ, without fitting anything.
func fakeEval(calls *atomic.Int64) func(context.Context, job.Config, int) (*job.Outcome, error) {
	return func(_ context.Context, c job.Config, threads int) (*job.Outcome, error) {
		calls.Add(1)
		emb := mat.NewDense(c.N, 2, nil)
		for i := 0; i < c.N; i++ {
			emb.Set(i, 0, float64(i))
			emb.Set(i, 1, float64(i*i%7))
		}
		return &job.Outcome{Metrics: map[string]float64{job.TestError: 0.4/c.Lambda + 0.01*float64(c.Rep), job.FitSeconds: 0.1},
			Embedding: emb, StopReason: embed.StopConverged.String(), Threads: threads}, nil
	}
}

func TestRunCachesAndReports(t *testing.T) {
	dir := t.TempDir()
	var calls atomic.Int64
	var stderr bytes.Buffer
	opt := Options{Script: "testdata/demo.go", DB: filepath.Join(dir, "r.db"), Reports: filepath.Join(dir, "reports"),
		Profile: "smoke", Jobs: 2, Eval: fakeEval(&calls), Stdout: &stderr, Stderr: &stderr}
	steps := []struct {
		name       string
		reportOnly bool
		wantSum    string
		wantCalls  int64
	}{
		{"first run executes every run", false, "0 cached, 6 run", 6},
		{"second run executes nothing", false, "6 cached, 0 run", 6},
		{"report only executes nothing", true, "0 cached, 0 run", 6},
	}
	for _, st := range steps {
		opt.ReportOnly = st.reportOnly
		res, err := Run(context.Background(), opt)
		if err != nil {
			t.Fatalf("%s: %v\n%s", st.name, err, stderr.String())
		}
		if res.Summary.String() != st.wantSum || calls.Load() != st.wantCalls {
			t.Errorf("%s: %v after %d evaluations, want %s after %d", st.name, res.Summary, calls.Load(), st.wantSum, st.wantCalls)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "reports", "smoke", "demo.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Does the fake algorithm get better with more triplets?",
		"Profile **smoke**, 6 runs.",
		"Algorithm notregistered is not implemented in this build yet (not registered); its runs were skipped. (6 runs)",
		"| runnerfake | 0.405 ± 0.007 | 0.205 ± 0.007 | 0.105 ± 0.007 |",
		"](demo/01-test-error-against-lambda.", "](demo/02-test-error.", "](demo/03-embedding.",
		"oerun testdata/demo.go --profile smoke --db " + opt.DB,
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	for _, index := range []string{"README.md", "smoke/README.md"} {
		if _, err := os.Stat(filepath.Join(dir, "reports", index)); err != nil {
			t.Error("no reports index:", err)
		}
	}
	// Only the run the scatter plot draws (λ = 1, repetition 0) keeps its
	// embedding.
	st, err := store.OpenReadOnly(opt.DB)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var kept int
	if err := st.DB().QueryRow("SELECT count(*) FROM embeddings").Scan(&kept); err != nil || kept != 1 {
		t.Errorf("%d embeddings stored (%v), want the one of λ = 1, repetition 0", kept, err)
	}
}

func TestReportOnlyMarksMissingRuns(t *testing.T) {
	dir := t.TempDir()
	var calls atomic.Int64
	emptyDB(t, filepath.Join(dir, "r.db"))
	_, err := Run(context.Background(), Options{Script: "testdata/demo.go", DB: filepath.Join(dir, "r.db"), Reports: dir,
		Profile: "smoke", ReportOnly: true, Eval: fakeEval(&calls), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)})
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "smoke", "demo.md"))
	if calls.Load() != 0 || !strings.Contains(string(md), "6 of 6 runs are not in the results database yet") ||
		!strings.Contains(string(md), "Profile **smoke**, 0 of 6 runs done; 6 missing.") {
		t.Errorf("%d evaluations; report:\n%s", calls.Load(), md)
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		name, script, profile, want string
	}{
		// yaegi locates a panic inside a method called on an interpreted
		// variable at an earlier statement using it (here line 8, not 9).
		{"script mistake has file and line", "testdata/broken.go", "smoke", `testdata/broken.go:8:7: panic: datasets: unknown dataset "no-such-dataset"`},
		{"unknown profile", "testdata/demo.go", "huge", `unknown profile "huge"`},
		{"missing script", "testdata/nope.go", "smoke", "no such file"},
		{"script requiring itself", "testdata/self.go", "smoke", `Section("self"): a script cannot read its own runs (it requires itself)`},
		{"scripts requiring each other", "testdata/cycle_a.go", "smoke", `Section("cycle_a"): the scripts require each other in a cycle: cycle_a → cycle_b → cycle_a`},
		{"section without a script", "testdata/unknown_section.go", "smoke", `Section("no_such_script"): there is no script testdata/no_such_script.go`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var calls atomic.Int64
			_, err := Run(context.Background(), Options{Script: tc.script, DB: filepath.Join(dir, "r.db"), Reports: dir,
				Profile: tc.profile, Eval: fakeEval(&calls), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// emptyDB creates a results database without runs.
func emptyDB(t *testing.T, path string) {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
}

// A report needs the database: a mistyped path is an error that creates
// nothing, not an empty database and an empty report.
func TestReportNeedsDatabase(t *testing.T) {
	dir := t.TempDir()
	var calls atomic.Int64
	db, reports := filepath.Join(dir, "typo.db"), filepath.Join(dir, "reports")
	_, err := Run(context.Background(), Options{Script: "testdata/demo.go", DB: db, Reports: reports,
		Profile: "smoke", ReportOnly: true, Eval: fakeEval(&calls), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)})
	if err == nil || !strings.Contains(err.Error(), "typo.db: no such file or directory") {
		t.Errorf("error %v, want it to name the missing database", err)
	}
	for _, p := range []string{db, reports} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s was created (%v)", p, err)
		}
	}
}

// A report rebuilt from a database that lacks its runs, or at another
// profile, does not replace the one that shows them, unless forced.
func TestReportRefusesToShrink(t *testing.T) {
	dir := t.TempDir()
	var calls atomic.Int64
	reports := filepath.Join(dir, "reports")
	full, empty := filepath.Join(dir, "full.db"), filepath.Join(dir, "empty.db")
	emptyDB(t, empty)
	opt := Options{Script: "testdata/demo.go", DB: full, Reports: reports, Profile: "smoke",
		Eval: fakeEval(&calls), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)}
	if _, err := Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(reports, "smoke", "demo.md")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	figures := func() []string {
		f, _ := filepath.Glob(filepath.Join(reports, "smoke", "demo", "03-embedding.*"))
		return f
	}
	if len(figures()) != 1 {
		t.Fatalf("figures %v, want one file of the scatter plot", figures())
	}
	tests := []struct {
		name, db, profile, want string
	}{
		{"database without the runs", empty, "smoke", "demo.md shows 6 runs at profile smoke; the new report would show 0 runs, so it is not replaced"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := opt
			o.DB, o.Profile, o.ReportOnly = tc.db, tc.profile, true
			_, err := Run(context.Background(), o)
			var re *report.ReplaceError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want a report.ReplaceError saying %q", err, tc.want)
			}
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Error("the report was replaced")
			}
			if len(figures()) != 1 {
				t.Errorf("the report's figures are gone: %v", figures())
			}
			o.Force = true
			if _, err := Run(context.Background(), o); err != nil {
				t.Fatalf("with Force: %v", err)
			}
			if after, _ := os.ReadFile(path); string(after) == string(before) {
				t.Error("with Force, the report was not replaced")
			}
			// Put the full report back for the next case.
			if _, err := Run(context.Background(), opt); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A report shows the runs as they ran: on the stand-in when the runs used
// it, even where the dataset's own files are present now.
func TestReportStandInFromDatabase(t *testing.T) {
	dir, data, script := awayFromData(t, "testdata/standin.go")
	var calls atomic.Int64
	opt := Options{Script: script, DB: filepath.Join(dir, "r.db"), Reports: filepath.Join(dir, "reports"), Profile: "smoke",
		Eval: fakeEval(&calls), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)}
	if _, err := Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	// MNIST's files appear (they are only looked for, not read).
	placeDataFiles(t, data, "mnist")
	opt.ReportOnly = true
	if _, err := Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "reports", "smoke", "standin.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Profile **smoke**, 2 runs.", "**UNIFORM stood in for MNIST**: the MNIST files were not available where the runs ran."} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(string(md), "not in the results database") {
		t.Errorf("report has missing runs:\n%s", md)
	}
}

// Each profile's reports are in their own folder: a report of another
// profile is written beside, never over, and the overview lists both.
func TestReportsPerProfile(t *testing.T) {
	dir := t.TempDir()
	var calls atomic.Int64
	reports := filepath.Join(dir, "reports")
	opt := Options{Script: "testdata/demo.go", DB: filepath.Join(dir, "r.db"), Reports: reports, Profile: "quick",
		Eval: fakeEval(&calls), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)}
	if _, err := Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	quick, err := os.ReadFile(filepath.Join(reports, "quick", "demo.md"))
	if err != nil {
		t.Fatal(err)
	}
	opt.Profile = "smoke"
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Report != filepath.Join(reports, "smoke", "demo.md") || res.Report != filepath.Join(ReportsDir(opt), "demo.md") {
		t.Errorf("smoke report written to %s", res.Report)
	}
	if after, _ := os.ReadFile(filepath.Join(reports, "quick", "demo.md")); string(after) != string(quick) {
		t.Error("the smoke run changed the quick report")
	}
	overview, err := os.ReadFile(filepath.Join(reports, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| demo | Does the fake algorithm get better with more triplets? | [6 runs](quick/demo.md) | — |", "**smoke** (`smoke/`)"} {
		if !strings.Contains(string(overview), want) {
			t.Errorf("overview lacks %q:\n%s", want, overview)
		}
	}
}

// Build rebuilds the report from the database and writes nothing.
func TestBuild(t *testing.T) {
	dir := t.TempDir()
	var calls atomic.Int64
	reports := filepath.Join(dir, "reports")
	opt := Options{Script: "testdata/demo.go", DB: filepath.Join(dir, "r.db"), Reports: reports, Profile: "smoke",
		Eval: fakeEval(&calls), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)}
	if _, err := Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(reports); err != nil {
		t.Fatal(err)
	}
	doc, err := Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Runs != 6 || doc.Profile != "smoke" || calls.Load() != 6 {
		t.Errorf("built a report of %d runs at %q after %d evaluations, want 6 at smoke after 6", doc.Runs, doc.Profile, calls.Load())
	}
	if _, err := os.Stat(reports); !os.IsNotExist(err) {
		t.Errorf("Build wrote %s (%v)", reports, err)
	}
}

// demoWithEmbeddings runs demo.go at the smoke profile into a new database
// and gives every run an embedding, as a database written before stores
// them (demo.go keeps only that of λ = 1, repetition 0); it returns the
// database's path.
func demoWithEmbeddings(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	var calls atomic.Int64
	if _, err := Run(context.Background(), Options{Script: "testdata/demo.go", DB: db, Reports: filepath.Join(dir, "reports"), Profile: "smoke",
		Eval: fakeEval(&calls), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)}); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.DB().Exec(`INSERT INTO embeddings (run_id, kind, rows, cols, encoding, data, labels_id)
		SELECT r.id, e.kind, e.rows, e.cols, e.encoding, e.data, e.labels_id FROM runs r, (SELECT * FROM embeddings LIMIT 1) e
		WHERE r.lambda != 1`) // runnerfake's 4 runs of λ = 2 and 4
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// Prune deletes the embeddings no declaration keeps: demo.go keeps that of
// λ = 1, repetition 0; embeddings of its other runs, as a database written
// before stores them, go.
func TestPrune(t *testing.T) {
	db := demoWithEmbeddings(t)
	p, err := Prune(context.Background(), db, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Embeddings != 4 || p.Reencoded != 0 || p.Superseded != 0 {
		t.Errorf("pruned %+v, want the 4 embeddings of λ = 2 and 4 deleted and no run (all listed)", p)
	}
	st, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var kept, keptLambda1 int
	st.DB().QueryRow("SELECT count(*), sum(r.lambda = 1) FROM embeddings e JOIN runs r ON r.id = e.run_id").Scan(&kept, &keptLambda1)
	if kept != 1 || keptLambda1 != 1 {
		t.Errorf("%d embeddings kept, %d of λ = 1; want that one", kept, keptLambda1)
	}
}

// Prune with the scripts prunes the runs no recorded execution lists (a
// campaign under way) by what the scripts declare now; without them those
// runs keep their embeddings.
func TestPruneByDeclarations(t *testing.T) {
	db := demoWithEmbeddings(t)
	// No execution is recorded: the runs of a campaign under way.
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.DB().Exec("DELETE FROM experiment_runs; DELETE FROM experiments")
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		scripts []string
		kept    int
	}{
		{"without scripts: unlisted runs keep theirs", nil, 5},
		{"by demo.go's declarations: λ = 1 only", []string{"testdata/demo.go"}, 1},
	} {
		if _, err := Prune(context.Background(), db, true, tc.scripts); err != nil {
			t.Fatal(err)
		}
		st, err := store.OpenReadOnly(db)
		if err != nil {
			t.Fatal(err)
		}
		var kept, runs int
		st.DB().QueryRow("SELECT count(*) FROM embeddings").Scan(&kept)
		st.DB().QueryRow("SELECT count(*) FROM runs").Scan(&runs)
		st.Close()
		if kept != tc.kept || runs != 6 {
			t.Errorf("%s: %d embeddings kept of %d runs, want %d of 6", tc.name, kept, runs, tc.kept)
		}
	}
	if _, err := Prune(context.Background(), db, false, []string{"testdata/nothere.go"}); err == nil {
		t.Error("a missing script: no error")
	}
}

// An execution that left runs out because their data files are not here is
// not complete: its runs are stored, but it is not recorded as the script's
// runs at the profile, so that a script reading it (Section) does not take
// it for all of them.
func TestSkippedForDataIsNotRecorded(t *testing.T) {
	dir, _, script := awayFromData(t, "testdata/nodata.go")
	var calls atomic.Int64
	db := filepath.Join(dir, "r.db")
	res, err := Run(context.Background(), Options{Script: script, DB: db, Reports: filepath.Join(dir, "reports"), Profile: "smoke",
		Eval: fakeEval(&calls), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, recorded, err := st.LastExecution(context.Background(), "nodata", "smoke")
	if err != nil || recorded || res.Summary.Ran != 1 || !maps.Equal(res.SkippedForData, map[string]int{"mnist": 1}) {
		t.Errorf("%v after a run skipped for its data (skipped %v): recorded %v (%v), want the uniform run executed, mnist's skipped and nothing recorded",
			res.Summary, res.SkippedForData, recorded, err)
	}
	// Declaring (oerun plan) counts the run it cannot plan, rather than
	// passing it over in silence.
	d, err := Declare(context.Background(), Options{Script: script, DB: filepath.Join(dir, "empty.db"), Profile: "smoke"})
	if err != nil || len(d.Runs) != 1 || !maps.Equal(d.SkippedForData, map[string]int{"mnist": 1}) {
		t.Errorf("Declare without mnist's files: %d runs, skipped %v (%v), want the uniform run and mnist's counted", len(d.Runs), d.SkippedForData, err)
	}
}

// A run stored already is the script's run where its data files are not
// here any more: known by its key, it is read, not skipped, so the
// execution is complete; and oerun prune, given the script, keeps the view
// it draws of it, though a finished script lists the run without keeping
// anything (the views 'oerun prune experiments/*.go' deleted where OE_DATA
// was not set: general.md's SOE on CHAR, which gram_solvers lists).
func TestStoredRunWithoutData(t *testing.T) {
	dir, data, script := awayFromData(t, "testdata/nodata.go")
	// MNIST's files are here (they are only looked for, not read).
	placeDataFiles(t, data, "mnist")
	var calls atomic.Int64
	db := filepath.Join(dir, "r.db")
	opt := Options{Script: script, DB: db, Reports: filepath.Join(dir, "reports"), Profile: "smoke",
		Eval: fakeEval(&calls), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)}
	if res, err := Run(context.Background(), opt); err != nil || res.Summary.Ran != 2 {
		t.Fatalf("with MNIST's files: %v (%v), want both runs executed", res.Summary, err)
	}
	if err := os.RemoveAll(data); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), opt)
	if err != nil || res.Summary.Cached != 2 || len(res.SkippedForData) != 0 {
		t.Errorf("without MNIST's files: %v, skipped %v (%v), want both runs read from the store", res.Summary, res.SkippedForData, err)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	_, recorded, err := st.LastExecution(context.Background(), "nodata", "smoke")
	if err != nil || !recorded {
		t.Errorf("the execution with every run stored: recorded %v (%v), want it recorded", recorded, err)
	}
	// nodata's campaign under way (no execution recorded), and a finished
	// script that lists the MNIST run without keeping its view.
	_, err = st.DB().Exec(`DELETE FROM experiment_runs; DELETE FROM experiments;
		INSERT INTO experiment_runs (experiment, profile, run_id, position, declared)
		SELECT 'lister', 'smoke', id, 0, '{"dataset":"mnist","n":20,"dim":2,"algorithm":"runnerfake"}' FROM runs WHERE dataset = 'mnist'`)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Prune(context.Background(), db, false, []string{script}); err != nil {
		t.Fatal(err)
	}
	st, err = store.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var views int
	if err := st.DB().QueryRow(`SELECT count(*) FROM embeddings e JOIN runs r ON r.id = e.run_id
		WHERE r.dataset = 'mnist' AND e.kind = 'view'`).Scan(&views); err != nil || views != 1 {
		t.Errorf("after prune without MNIST's files: %d views of the MNIST run (%v), want the one nodata.go draws", views, err)
	}
}

// The runs of Comparisons, CrossValidate and Extension count without their
// data files once the store holds them, as Run's do
// (TestStoredRunWithoutData): under every protocol, each fold of a
// cross-validation; with one fold of two stored the run is skipped, as the
// other cannot run.
func TestStoredProtocolRunsWithoutData(t *testing.T) {
	for _, tc := range []struct {
		script, dataset string
		runs            int
	}{
		{"testdata/nodata_comparisons.go", "material", 2},
		{"testdata/nodata_extension.go", "mnist", 1},
	} {
		t.Run(tc.dataset, func(t *testing.T) {
			dir, data, script := awayFromData(t, tc.script)
			db := filepath.Join(dir, "r.db")
			opt := Options{Script: script, DB: db, Reports: filepath.Join(dir, "reports"), Profile: "smoke",
				Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)}
			declare := func() Declared {
				t.Helper()
				d, err := Declare(context.Background(), opt)
				if err != nil {
					t.Fatal(err)
				}
				return d
			}
			// The dataset's files are here (looked for, not read): its
			// runs are declared, to run.
			placeDataFiles(t, data, tc.dataset)
			runs := declare().Runs
			if len(runs) != tc.runs {
				t.Fatalf("with the files: %d runs declared, want %d", len(runs), tc.runs)
			}
			if err := os.RemoveAll(data); err != nil {
				t.Fatal(err)
			}
			st, err := store.Open(db)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range runs {
				err := st.Put(context.Background(), store.Record{Job: r.Job, Status: store.OK,
					Outcome: &job.Outcome{Metrics: map[string]float64{job.TestError: 0.3, job.FitSeconds: 0.1}}})
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]int{}
				if i < len(runs)-1 {
					want[tc.dataset] = 1
				}
				if d := declare(); len(d.Runs) != 0 || !maps.Equal(d.SkippedForData, want) {
					t.Errorf("without the files, %d of %d runs stored: %d to run, skipped %v; want none to run, skipped %v",
						i+1, len(runs), len(d.Runs), d.SkippedForData, want)
				}
			}
			st.Close()
			if res, err := Run(context.Background(), opt); err != nil || res.Summary.Cached != tc.runs || len(res.SkippedForData) != 0 {
				t.Errorf("without the files, every run stored: %v, skipped %v (%v), want all %d read from the store",
					res.Summary, res.SkippedForData, err, tc.runs)
			}
		})
	}
}

// TestRunsLeftForAnotherMachine: a run on a backend this machine cannot
// run (a GPU run where none answers) is declared, left missing and never
// stored as failed; the script that declares it is then incomplete, and a
// script reading it (Section) reads what it declares, as far as the store
// holds it. Once a machine with a GPU has executed it, both complete.
func TestRunsLeftForAnotherMachine(t *testing.T) {
	dir := t.TempDir()
	var calls atomic.Int64
	var out bytes.Buffer
	opt := Options{Script: "testdata/reads_elsewhere.go", DB: filepath.Join(dir, "r.db"), Reports: filepath.Join(dir, "reports"),
		Profile: "smoke", Eval: fakeEval(&calls), Stdout: &out, Stderr: &out}
	recorded := func(name string) bool {
		st, err := store.OpenReadOnly(opt.DB)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		_, ok, err := st.LastExecution(context.Background(), name, "smoke")
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if _, err := Run(context.Background(), opt); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if calls.Load() != 1 || !strings.Contains(out.String(), "elsewhere: 2 runs, 1 ok") ||
		!strings.Contains(out.String(), "elsewhere.go: 0 cached, 1 run, 1 left for another machine") {
		t.Errorf("without a GPU: %d evaluations, output:\n%s\nwant the CPU run executed, the GPU run left, both read", calls.Load(), out.String())
	}
	if recorded("elsewhere") || recorded("reads_elsewhere") {
		t.Error("an execution that left a run for another machine was recorded as complete")
	}
	st, err := store.OpenReadOnly(opt.DB)
	if err != nil {
		t.Fatal(err)
	}
	var failed int
	st.DB().QueryRow("SELECT count(*) FROM runs WHERE status = 'failed'").Scan(&failed)
	st.Close()
	if failed != 0 {
		t.Errorf("%d failed runs stored, want none", failed)
	}

	// The machine with a GPU executes it; then everything is read here.
	gpuAnswers.Store(nil)
	defer func() {
		noGPU := errors.New("no GPU here")
		gpuAnswers.Store(&noGPU)
	}()
	out.Reset()
	if _, err := Run(context.Background(), opt); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if calls.Load() != 2 || !strings.Contains(out.String(), "elsewhere: 2 runs, 2 ok") {
		t.Errorf("with a GPU: %d evaluations, output:\n%s\nwant the GPU run executed and both read", calls.Load(), out.String())
	}
	if !recorded("elsewhere") || !recorded("reads_elsewhere") {
		t.Error("complete executions not recorded")
	}
}

// TestKeepDeclared: what stays of a run's embedding is the most any
// declaration listing it keeps; an unreadable or unrecorded one keeps it
// whole, as do declarations from before views (true).
func TestKeepDeclared(t *testing.T) {
	for _, tc := range []struct {
		name     string
		declared []string
		want     store.Keep
	}{
		{"none kept", []string{`{"algorithm":"soe"}`}, store.KeepNothing},
		{"a view", []string{`{"algorithm":"soe"}`, `{"keep_embedding":"view"}`}, store.KeepView},
		{"whole beats a view", []string{`{"keep_embedding":"view"}`, `{"keep_embedding":"full"}`}, store.KeepWhole},
		{"before views", []string{`{"keep_embedding":true}`}, store.KeepWhole},
		{"not recorded", []string{""}, store.KeepWhole},
		{"unreadable", []string{"{"}, store.KeepWhole},
	} {
		if got := keepDeclared(tc.declared); got != tc.want {
			t.Errorf("%s: keepDeclared(%q) = %v, want %v", tc.name, tc.declared, got, tc.want)
		}
	}
}

// Prune given scripts migrates a database of an older schema version
// (README: oerun prune migrates it), which declaring reads only afterwards.
func TestPruneMigratesOlderSchema(t *testing.T) {
	dump, err := os.ReadFile(filepath.Join("store", "testdata", "results_v3.sql"))
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "v3.db")
	raw, err := sql.Open("sqlite3", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.Exec(string(dump))
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Prune(context.Background(), db, false, []string{"testdata/demo.go"}); err != nil {
		t.Fatalf("prune of a version 3 database: %v", err)
	}
	st, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatalf("after prune: %v", err)
	}
	st.Close()
}

// awayFromData points the data folder (OE_DATA) and the download cache at
// empty folders of a new temporary directory, offline, and moves into it,
// away from the checkout's data/ folder. It returns the directory, the data
// folder and script's absolute path.
func awayFromData(t *testing.T, script string) (dir, data, abs string) {
	t.Helper()
	abs, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	data = filepath.Join(dir, "data")
	t.Setenv("OE_DATA", data)
	t.Setenv("OE_CACHE", filepath.Join(dir, "cache"))
	t.Setenv("OE_OFFLINE", "1")
	t.Chdir(dir)
	return dir, data, abs
}

// placeDataFiles writes a placeholder where each of dataset's files goes
// under data: a script only looks for them, and the tests' runs read none
// (fakeEval, or runs stored beforehand).
func placeDataFiles(t *testing.T, data, dataset string) {
	t.Helper()
	spec, err := datasets.Lookup(dataset)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range spec.Files {
		p := filepath.Join(data, f.Path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("present"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The executor Run and a budget execute with carries the options that
// decide which runs start and how they keep their state.
func TestExecutorOptions(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	x := Executor(Options{Jobs: 3, Threads: 2, RetryFailed: true, CheckpointEvery: 7 * time.Minute, WholeRuns: true, Quiet: true}, st, "demo")
	if x.Jobs != 3 || x.Threads != 2 || !x.RetryFailed || x.CheckpointEvery != 7*time.Minute || !x.WholeRuns ||
		x.Checkpoints != db+"-checkpoints" || x.Experiment != "demo" {
		t.Errorf("executor %+v: the options did not reach it", *x)
	}
}
