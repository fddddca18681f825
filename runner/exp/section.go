package exp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/internal/session"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/store"
)

// Section returns the results of the runs that the script name (e.g.
// "general" for experiments/general.go, in this script's folder) declares
// at this profile, as it declares them and in its order, read from the run
// cache. A script that checks or compares another's results reads them so
// instead of declaring the runs again: every run has one declaration, in the
// script it belongs to.
//
// The results are every run the script declares, whether the cache holds it
// or not: one it lacks has Status Missing (Results.Missing counts them), so
// that a section only partly done at a profile (a paper-profile campaign
// under way) is read as far as it is, and a finding on it can say how many
// runs it still lacks.
//
// Where the script's last complete execution at this profile is up to date,
// Section reads the runs that execution declared. Where the script has not
// completed at this profile, its file changed since, or one of its runs was
// computed by a version of its algorithm or of the evaluation other than
// this build's, Section either executes it first, as `oerun
// experiments/<name>.go` would (its missing runs, its report), when this
// execution executes runs (oerun run, oerun X.go); or, when it executes
// nothing (oerun report; the reports that oerun run --budget writes; oerun
// plan), runs the script declare-only — nothing executed, recorded or
// written, no figure drawn — and reads what the cache holds of the runs it
// declares: oerun report stays read-only and costs a pass over the script
// and one status query per run. A script executed first that still lacks
// runs this machine cannot execute (their data files are not here, or their
// backend: a cuda run without a GPU) is read so too. The runs count as
// cached in this script's summary, or as what executing the script did.
//
// Like Run, Section adds the runs to the report ("What was run") and notes
// the stand-in datasets they used. A script that requires itself, or
// scripts that require each other in a cycle, panic.
func (e *Experiment) Section(name string) Results {
	s := e.s
	if name == "" || name != filepath.Base(name) || strings.HasSuffix(name, ".go") {
		panic(fmt.Sprintf("exp: Section(%q): want a script's name, such as \"general\" for experiments/general.go", name))
	}
	if name == s.Name {
		panic(fmt.Sprintf("exp: Section(%q): a script cannot read its own runs (it requires itself)", name))
	}
	if chain := s.Requires(); slices.Contains(chain, name) {
		panic(fmt.Sprintf("exp: Section(%q): the scripts require each other in a cycle: %s → %s", name, strings.Join(chain, " → "), name))
	}
	path := e.File(name + ".go")
	hash, err := session.ScriptSHA256(path)
	if errors.Is(err, fs.ErrNotExist) {
		panic(fmt.Sprintf("exp: Section(%q): there is no script %s", name, path))
	}
	if err != nil {
		panic(fmt.Errorf("exp: Section(%q): %w", name, err))
	}
	ctx := context.Background()
	members := e.members(ctx, name)
	why := e.outOfDate(ctx, name, hash, members)
	var todo []declared
	switch {
	case why != "" && !s.Executes():
		return e.declaredNow(ctx, name, path, why)
	case why != "":
		sum, err := s.Require(path, why)
		if err != nil {
			panic(fmt.Errorf("exp: Section(%q): %w", name, err))
		}
		e.count(sum)
		members = e.members(ctx, name)
		if still := e.outOfDate(ctx, name, hash, members); still != "" {
			// Executed as far as this machine can, it still lacks runs
			// (their data files or their backend are elsewhere), so it
			// recorded no execution: read what it declares.
			return e.declaredNow(ctx, name, path, still)
		}
	case s.Executes():
		e.count(execute.Summary{Cached: len(members)})
	}
	if len(members) == 0 {
		return nil
	}
	todo = make([]declared, len(members))
	for i, m := range members {
		todo[i] = e.readDeclared(name, job.Canonical{Key: m.Key}, m.Declared, m.Dataset)
	}
	return e.collect(ctx, todo, name+" runs")
}

// declaredNow returns the results of the runs that the script name at path
// declares now, as far as the cache holds them, where its runs at this
// profile are not those of an up-to-date complete execution (why says
// why).
func (e *Experiment) declaredNow(ctx context.Context, name, path, why string) Results {
	runs, err := e.s.DeclareScript(path)
	if err != nil {
		panic(fmt.Errorf("exp: Section(%q): %w", name, err))
	}
	if !e.s.DeclareOnly {
		e.Note(fmt.Sprintf("%s %s: its runs are read as it declares them now, as far as the results database holds them.", path, why))
	}
	todo := make([]declared, len(runs))
	for i, d := range runs {
		todo[i] = e.readDeclared(name, d.Job, d.Declared, d.Dataset)
	}
	return e.collect(ctx, todo, name+" runs")
}

// readDeclared returns the run of the script name with the given job, as
// the script declared it (JSON of Run), on the dataset used, and notes a
// stand-in.
func (e *Experiment) readDeclared(name string, c job.Canonical, declaration, used string) declared {
	var r Run
	if err := json.Unmarshal([]byte(declaration), &r); err != nil {
		panic(fmt.Errorf("exp: Section(%q): run %.12s as declared (%q): %w", name, c.Key, declaration, err))
	}
	if !strings.EqualFold(used, r.Dataset) {
		e.noteStandIn(r.Dataset, used)
	}
	return declared{run: r, used: used, job: c}
}

// members reads the runs the script name declared at this profile.
func (e *Experiment) members(ctx context.Context, name string) []store.Member {
	m, err := e.s.Store.Members(ctx, name, e.s.Profile)
	if err != nil {
		panic(fmt.Errorf("exp: Section(%q): %w", name, err))
	}
	return m
}

// outOfDate says why the runs that the script name declared at this profile
// (members) may not be those it declares now, when its file has the given
// hash; "" when they are.
func (e *Experiment) outOfDate(ctx context.Context, name, hash string, members []store.Member) string {
	x, ok, err := e.s.Store.LastExecution(ctx, name, e.s.Profile)
	switch {
	case err != nil:
		panic(fmt.Errorf("exp: Section(%q): %w", name, err))
	case !ok:
		return "has not run at profile " + e.s.Profile
	case x.ScriptSHA256 != hash:
		return fmt.Sprintf("changed since it ran at profile %s (%s UTC)", e.s.Profile, x.Finished.UTC().Format("2006-01-02 15:04"))
	}
	for _, m := range members {
		info, err := embed.Lookup(m.Algorithm)
		switch {
		case err != nil:
			return fmt.Sprintf("declared runs of %s, which this build does not have", m.Algorithm)
		case info.Version != m.AlgorithmVersion:
			return fmt.Sprintf("ran %s version %d, which this build replaced by version %d", m.Algorithm, m.AlgorithmVersion, info.Version)
		case m.EvalVersion != job.EvalVersion:
			return fmt.Sprintf("was evaluated by protocol version %d, which this build replaced by version %d", m.EvalVersion, job.EvalVersion)
		}
	}
	return ""
}

// count adds what Run, Extension or Section executed or read to the
// script's summary.
func (e *Experiment) count(sum execute.Summary) {
	e.s.Lock()
	defer e.s.Unlock()
	e.s.Summary = e.s.Summary.Add(sum)
}
