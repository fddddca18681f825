package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/evaluate"
	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/exp"
	"github.com/oe-lab/oe/runner/hostinfo"
	"github.com/oe-lab/oe/runner/internal/session"
	"github.com/oe-lab/oe/runner/interp"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/report"
	"github.com/oe-lab/oe/runner/store"
)

// Defaults of Options.
const (
	DefaultDB      = "results.db"
	DefaultReports = "reports"
	DefaultProfile = string(exp.Quick)
)

// Options configure one script execution.
type Options struct {
	// Script is the path of the experiment script.
	Script string
	// DB is the results database (default DefaultDB).
	DB string
	// Reports is the folder of the reports (default DefaultReports): a
	// script's report is <Reports>/<Profile>/<name>.md, each profile's
	// reports in their own folder, and <Reports>/README.md lists them side
	// by side (report.Overview).
	Reports string
	// Profile is smoke, quick or paper (default quick).
	Profile string
	// Jobs runs execute at once (≤ 0: one per CPU); each uses Threads
	// threads (≤ 0: the CPUs shared among the jobs).
	Jobs, Threads int
	// RetryFailed executes runs stored as failed again.
	RetryFailed bool
	// CheckpointEvery is the least time between two writes of a resumable
	// run's checkpoint (execute.Executor.CheckpointEvery; 0:
	// embed.DefaultCheckpointEvery).
	CheckpointEvery time.Duration
	// WholeRuns starts, under a budget, only the runs expected to finish
	// in it, resumable ones too (execute.Executor.WholeRuns).
	WholeRuns bool
	// ReportOnly rebuilds the report from the database without executing
	// any run: the database must exist, and is opened read-only.
	ReportOnly bool
	// Force lets a ReportOnly rebuild replace a report of another profile
	// or one that shows more runs (see report.Doc.CheckReplace), which it
	// otherwise refuses.
	Force bool
	// Quiet leaves out the progress bar and the messages to Stderr.
	Quiet bool
	// build returns the report in Result.Doc instead of writing it (Build).
	build bool
	// MaxEmbedding is the largest embedding (values) stored with a run
	// (0: store.DefaultMaxEmbedding; negative: none).
	MaxEmbedding int
	// Stdout and Stderr receive the script's output and the progress bar
	// (default os.Stdout and os.Stderr).
	Stdout, Stderr io.Writer
	// Eval computes a run (default: runner/evaluate).
	Eval execute.EvalFunc
	// Defer, when set, receives the runs the script would execute (those
	// missing from the database, or failed with RetryFailed), in order, and
	// Run executes none of them. The report says they are missing, and Run
	// records the script's execution only when it deferred none.
	Defer func([]execute.Pending)
	// Estimate, when set, estimates how long a missing run would take
	// (runner/plan's Model): a report with missing runs states their cost.
	Estimate func(job.Config) time.Duration
	// declareOnly: see Declare.
	declareOnly bool
}

// Result is what a script execution did.
type Result struct {
	// Summary counts cached, executed and failed runs.
	Summary execute.Summary
	// Report is the path of the report written.
	Report string
	// Doc is the report (written to Report, except by Build).
	Doc *report.Doc
	// Deferred counts the runs handed to Options.Defer.
	Deferred int
	// SkippedForData counts, by dataset, the runs the script left out
	// because their dataset's files are missing here and the database
	// lacks them (a stored run is read by its key, files or not).
	SkippedForData map[string]int
	// declared are the runs the script declared or read, in order, and
	// awaited the groups of runs its checks wait for.
	declared []session.Declaration
	awaited  []session.Awaited
}

// Declared is what Declare finds a script declares.
type Declared struct {
	// Runs are the runs the database lacks.
	Runs []execute.Pending
	// SkippedForData counts, by dataset, the runs the script declares but
	// left out because their dataset's files are not here and the
	// database lacks them: they are in no plan until the files are.
	SkippedForData map[string]int
	// Awaited are the groups of runs that the script's checks of the
	// paper's findings compare (exp's Check: experiments/reproduction.go)
	// while the database lacks some of them, in the order the checks
	// noted them: a check is judged on a group once its runs are stored.
	Awaited []Awaited
}

// Awaited is a group of runs a check waits for (see Declared).
type Awaited = session.Awaited

// Run executes the script as opt says and writes its report into
// ReportsDir(opt). A failed run does not make Run fail; a mistake in the
// script does, with its file and line. Unless opt.ReportOnly, the store
// records which runs the script declared at the profile (experiment_runs)
// once it completes with every run it declares or reads stored, and none
// left out for want of its data files. A script that reads another's runs
// (exp's Section) may have Run execute that script first, with the same
// options, or, where Run executes nothing (ReportOnly, Defer), declare it.
func Run(ctx context.Context, opt Options) (Result, error) {
	opt = withDefaults(opt)
	var res Result
	if err := checkProfile(opt.Profile); err != nil {
		return res, err
	}
	if _, err := os.Stat(opt.Script); err != nil {
		return res, err
	}
	st, err := OpenStore(opt)
	if err != nil {
		return res, err
	}
	defer st.Close()
	return run(ctx, opt, st, nil)
}

// OpenStore opens the database opt.DB as Run does: read-only under
// ReportOnly, else for writing, with opt's limit on stored embeddings.
func OpenStore(opt Options) (*store.Store, error) {
	opt = withDefaults(opt)
	open := store.Open
	if opt.ReportOnly {
		open = store.OpenReadOnly
	}
	st, err := open(opt.DB)
	if err != nil {
		return nil, err
	}
	switch {
	case opt.MaxEmbedding < 0:
		st.MaxEmbedding = 0
	case opt.MaxEmbedding > 0:
		st.MaxEmbedding = opt.MaxEmbedding
	}
	return st, nil
}

// Executor returns the executor that Run executes opt's runs with into st;
// label names them on the progress bar.
func Executor(opt Options, st *store.Store, label string) *execute.Executor {
	opt = withDefaults(opt)
	progress := opt.Stderr
	if opt.Quiet {
		progress = nil
	}
	return &execute.Executor{Store: st, Experiment: label, Jobs: opt.Jobs, Threads: opt.Threads,
		RetryFailed: opt.RetryFailed, Eval: opt.Eval, Runnable: runnable, Host: hostinfo.Current(), Progress: progress,
		Checkpoints: CheckpointDir(st.Path()), CheckpointEvery: opt.CheckpointEvery, WholeRuns: opt.WholeRuns}
}

// CheckpointDir returns the folder beside the database db where the runs
// executed into it keep their checkpoints (execute.Executor.Checkpoints):
// results.db's is results.db-checkpoints, a shard's beside the shard, so
// that a cluster task started again finds its own.
func CheckpointDir(db string) string { return db + "-checkpoints" }

// runnable says why this machine cannot execute a run (nil: it can): its
// method does not run on its backend here, as a cuda run where this binary
// was built without CUDA or no GPU answers. Scripts declare such runs
// wherever they run, so that their results, computed on a machine that can
// and folded in with oerun merge, are read everywhere; here they stay
// missing.
func runnable(c job.Config) error {
	info, err := embed.Lookup(c.Algorithm)
	if err != nil {
		return nil // the evaluation names the unknown method
	}
	return info.Available(embed.Backend(c.Backend))
}

// Declare returns the runs that the script opt.Script declares at
// opt.Profile and the database opt.DB lacks (or holds as failed, with
// opt.RetryFailed), each once and with the evaluation that computes it, in
// the order the script declares them; a script it reads with exp's Section
// that has not run comes first. It executes none of them and changes
// nothing: the script runs as under Run with a Defer that collects the runs,
// but quietly, with the database opened read-only (a missing one holds no
// runs), recording nothing and writing no report. `oerun plan` lists the
// runs so; `oerun run --shard` and `--budget` execute them with
// execute.Executor's ExecutePending. The script reads the stored runs'
// statuses and metrics as it does executed, so the runs it declares from
// others' results (crowd.go's fits at the d its cross-validation picks)
// are declared once those results are stored, not before: a budget plans
// again after running them, and a Slurm array's merge reveals them to the
// next array.
func Declare(ctx context.Context, opt Options) (Declared, error) {
	opt.Quiet, opt.ReportOnly = true, false
	opt = withDefaults(opt)
	if err := checkProfile(opt.Profile); err != nil {
		return Declared{}, err
	}
	if _, err := os.Stat(opt.Script); err != nil {
		return Declared{}, err
	}
	st, done, err := openToDeclare(opt.DB)
	if err != nil {
		return Declared{}, err
	}
	defer done()
	opt.declareOnly = true
	var runs []execute.Pending
	opt.Defer = func(p []execute.Pending) { runs = append(runs, p...) }
	res, err := run(ctx, opt, st, nil)
	if err != nil {
		return Declared{}, err
	}
	return Declared{Runs: execute.Unique(runs), SkippedForData: res.SkippedForData, Awaited: res.awaited}, nil
}

// openToDeclare opens the database at path read-only for declaring scripts,
// or an empty one in a temporary folder where none exists (it holds no
// runs); done closes it and removes that folder.
func openToDeclare(path string) (st *store.Store, done func(), err error) {
	st, err = store.OpenReadOnly(path)
	if errors.Is(err, fs.ErrNotExist) {
		var dir string
		if dir, err = os.MkdirTemp("", "oe-declare"); err != nil {
			return nil, nil, err
		}
		if st, err = store.Open(filepath.Join(dir, "empty.db")); err != nil {
			os.RemoveAll(dir)
			return nil, nil, err
		}
		return st, func() { st.Close(); os.RemoveAll(dir) }, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return st, func() { st.Close() }, nil
}

// Declarations returns, by run key, the declarations (exp.Run as JSON, as
// experiment_runs.declared records them) that the scripts make now at
// every profile, whether results.db holds the runs or not. Prune reads
// them for the runs that no recorded execution lists yet, those of a
// campaign under way. Like Declare it executes nothing and writes nothing.
func Declarations(ctx context.Context, db string, scripts []string) (map[string][]string, error) {
	st, done, err := openToDeclare(db)
	if err != nil {
		return nil, err
	}
	defer done()
	out := map[string][]string{}
	for _, script := range scripts {
		if _, err := os.Stat(script); err != nil {
			return nil, err
		}
		for _, p := range []exp.Profile{exp.Smoke, exp.Quick, exp.Paper} {
			opt := withDefaults(Options{Script: script, DB: db, Profile: string(p), Quiet: true})
			opt.declareOnly = true
			opt.Defer = func([]execute.Pending) {}
			res, err := run(ctx, opt, st, nil)
			if err != nil {
				return nil, fmt.Errorf("%s at profile %s: %w", script, p, err)
			}
			for _, d := range res.declared {
				out[d.Job.Key] = append(out[d.Job.Key], d.Declared)
			}
		}
	}
	return out, nil
}

// Prune brings the database at path to what Run stores now (store.Prune):
// it deletes the embeddings and views that no script declares with
// KeepEmbedding in its recorded executions, stores as their view the 2-D
// embeddings stored whole that the scripts keep only as views
// (exp.MaxViewPoints), re-encodes the other whole ones as float32, deletes
// the trace epochs between the stopping rule's checks, and compacts the
// file. With superseded it also deletes the runs that no recorded execution
// lists and that another version of their algorithm (this build's registry,
// lib/embed) or of the evaluation computed: no script of this build can use
// them, as their keys name those versions. The scripts' other runs and
// metrics are untouched. A declaration that cannot be read (none recorded:
// schema version 1) keeps the embedding whole. Given scripts, the runs that
// no recorded execution lists but that those scripts declare now (see
// Declarations: a campaign under way) are pruned by those declarations too;
// a run that no execution lists and no script declares keeps its embedding.
func Prune(ctx context.Context, path string, superseded bool, scripts []string) (store.Pruned, error) {
	// Opened first: Open migrates a database of an older schema, which the
	// read-only declaring refuses.
	st, err := store.Open(path)
	if err != nil {
		return store.Pruned{}, err
	}
	defer st.Close()
	var declared map[string][]string
	if len(scripts) > 0 {
		if declared, err = Declarations(ctx, path, scripts); err != nil {
			return store.Pruned{}, err
		}
	}
	rules := store.PruneRules{Keep: keepDeclared, ViewRows: exp.MaxViewPoints, Declared: declared}
	if superseded {
		rules.Current = func(algorithm string) (int, bool) {
			info, err := embed.Lookup(algorithm)
			return info.Version, err == nil
		}
	}
	return st.Prune(ctx, rules)
}

// keepDeclared is what stays of a run's embedding, given the declarations
// (exp.Run as JSON) of the executions that list it: the most any of them
// keeps.
func keepDeclared(declared []string) store.Keep {
	most := store.KeepNothing
	for _, d := range declared {
		var r exp.Run
		switch {
		case d == "" || json.Unmarshal([]byte(d), &r) != nil || r.KeepEmbedding == exp.KeepFull:
			return store.KeepWhole
		case r.KeepEmbedding == exp.KeepView:
			most = store.KeepView
		}
	}
	return most
}

func checkProfile(p string) error {
	switch exp.Profile(p) {
	case exp.Smoke, exp.Quick, exp.Paper:
		return nil
	}
	return fmt.Errorf("unknown profile %q (want smoke, quick or paper)", p)
}

// Build rebuilds the report of the script as a ReportOnly Run does, from
// the database alone (opened read-only; opt.ReportOnly is implied), and
// returns it without writing anything: what oerun export writes out as
// CSV.
func Build(ctx context.Context, opt Options) (*report.Doc, error) {
	opt.ReportOnly, opt.build = true, true
	res, err := Run(ctx, opt)
	return res.Doc, err
}

// run executes one script against the open store; parent is the execution
// that required it (nil for the script oerun was given).
func run(ctx context.Context, opt Options, st *store.Store, parent *session.Session) (Result, error) {
	var res Result
	// The hash of the file as it is interpreted: Section compares it with
	// the file's to tell whether the script changed since.
	hash, err := session.ScriptSHA256(opt.Script)
	if err != nil {
		return res, err
	}
	name := strings.TrimSuffix(filepath.Base(opt.Script), ".go")
	s := &session.Session{
		Name: name, ScriptDir: filepath.Dir(opt.Script), Profile: opt.Profile, ReportOnly: opt.ReportOnly,
		DeclareOnly: opt.declareOnly, Estimate: opt.Estimate,
		Store: st, Command: command(opt), Parent: parent, Exec: Executor(opt, st, name),
	}
	// A script that Section requires hands its runs to the same Defer, but
	// counts its own.
	var deferred atomic.Int64
	if opt.Defer != nil {
		s.Exec.Defer = func(p []execute.Pending) {
			deferred.Add(int64(len(p)))
			opt.Defer(p)
		}
	}
	// The required script runs under ctx, so that oerun's interrupt stops
	// it as it stops this one.
	s.Require = func(script, why string) (execute.Summary, error) {
		sub := opt
		sub.Script = script
		fmt.Fprintf(opt.Stderr, "%s needs the runs of %s, which %s: running %s first\n",
			name, strings.TrimSuffix(filepath.Base(script), ".go"), why, script)
		r, err := run(ctx, sub, st, s)
		if err != nil {
			return r.Summary, err
		}
		fmt.Fprintf(opt.Stderr, "%s: %v; report %s\n", sub.Script, r.Summary, r.Report)
		return r.Summary, nil
	}
	// A script that Section reads where it executes nothing is declared
	// inside the reading one, quietly, with the same Defer.
	s.DeclareScript = func(script string) ([]session.Declaration, error) {
		sub := opt
		sub.Script, sub.declareOnly, sub.Stdout, sub.Stderr = script, true, io.Discard, io.Discard
		if sub.Defer == nil {
			// Declaring executes nothing, also inside a script that does.
			sub.Defer = func([]execute.Pending) {}
		}
		r, err := run(ctx, sub, st, s)
		return r.declared, err
	}
	// A required script runs inside the requiring one: its session is
	// current until it ends, then the requiring one's again.
	defer session.Set(session.Set(s))
	if err := interp.Run(ctx, opt.Script, opt.Stdout, opt.Stderr); err != nil {
		return res, err
	}
	s.Lock()
	doc, sum := s.Doc, s.Summary
	s.Unlock()
	res.Summary, res.Doc, res.Deferred, res.declared, res.awaited = sum, doc, int(deferred.Load()), s.Declared(), s.Awaited()
	res.SkippedForData = s.SkippedForData()
	if doc == nil {
		return res, errors.New(opt.Script + ": the script never called exp.Begin, so there is no report")
	}
	if opt.build || opt.declareOnly {
		return res, nil
	}
	dir := ReportsDir(opt)
	if opt.ReportOnly && !opt.Force {
		if err := doc.CheckReplace(dir); err != nil {
			return res, err
		}
	}
	if err := doc.Write(dir); err != nil {
		return res, err
	}
	if err := report.Index(dir); err != nil {
		return res, err
	}
	if err := report.Overview(opt.Reports, profiles); err != nil {
		return res, err
	}
	res.Report = filepath.Join(dir, name+".md")
	// Only now, with the script and its report complete: an execution that
	// failed half-way must not replace the runs of the last complete one,
	// nor may one that left runs missing (deferred, missing from a section
	// it read, or skipped for want of their data files) stand for them.
	if !opt.ReportOnly && res.Deferred == 0 && doc.Missing == 0 && len(res.SkippedForData) == 0 {
		if err := st.RecordExecution(ctx, name, opt.Profile, hash, s.Members()); err != nil {
			return res, err
		}
	}
	return res, nil
}

// ReportsDir returns the folder of opt's reports: the profile's folder in
// opt.Reports.
func ReportsDir(opt Options) string {
	opt = withDefaults(opt)
	return filepath.Join(opt.Reports, opt.Profile)
}

// profiles are the profiles as the overview of reports describes them:
// quick and paper side by side, smoke only described, as git ignores its
// folder (.gitignore) so that a smoke run never changes a committed report.
var profiles = []report.Profile{
	{Name: string(exp.Quick), Column: true, About: "every section at a reduced scale, the whole paper in about an hour " +
		"on two cores (`make reproduce`): datasets subsampled to 100–1,000 items, epochs capped, one or two repetitions, " +
		"FMNIST standing in for the datasets whose files are not here. Its findings are explained by scale where they fail."},
	{Name: string(exp.Paper), Column: true, About: "the paper's sizes, epochs (the stopping rule alone) and repetitions, " +
		"as far as the budgeted campaign has reached (`make campaign BUDGET=2h`, cheapest runs first): a report " +
		"with runs missing says how many are done, how many are missing and their estimated cost."},
	{Name: string(exp.Smoke), About: "seconds per script, what the tests and CI run; git ignores the folder, so a smoke " +
		"run never overwrites a committed report."},
}

func withDefaults(o Options) Options {
	if o.DB == "" {
		o.DB = DefaultDB
	}
	if o.Reports == "" {
		o.Reports = DefaultReports
	}
	if o.Profile == "" {
		o.Profile = DefaultProfile
	}
	if o.Stdout == nil {
		o.Stdout = os.Stdout
	}
	switch {
	case o.Quiet:
		o.Stderr = io.Discard
	case o.Stderr == nil:
		o.Stderr = os.Stderr
	}
	if o.Eval == nil {
		o.Eval = evaluate.New().Run
	}
	return o
}

// command is the command line that reruns the experiment as opt did (at
// the paper profile, as a budgeted campaign).
func command(o Options) string {
	c := "oerun " + filepath.ToSlash(o.Script) + " --profile " + o.Profile
	if exp.Profile(o.Profile) == exp.Paper {
		// Days of runs: a budgeted, resumable campaign, cheapest first.
		c = "oerun run --profile paper --budget 2h " + filepath.ToSlash(o.Script)
	}
	if o.DB != DefaultDB {
		c += " --db " + o.DB
	}
	return c
}
