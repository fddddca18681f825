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
// "general" for experiments/general.go, in this script's folder) declared
// in its last complete execution at this profile, as it declared them and
// in its order, read from the run cache. A script that checks or compares
// another's results reads them so instead of declaring the runs again: every
// run has one declaration, in the script it belongs to.
//
// When that script has not completed at this profile, its file changed
// since, or one of its runs was computed by a version of its algorithm or of
// the evaluation other than this build's, Section first executes it as
// `oerun experiments/<name>.go` would (its missing runs, its report). Under
// `oerun report`, which executes nothing, it reads what the cache holds and
// notes that it may be out of date. The runs count as cached in this
// script's summary, or as what executing the script did.
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
	switch {
	case why != "" && s.ReportOnly:
		// Its command is this script's with the other script's path.
		command := strings.Replace(s.Command, s.Name+".go", name+".go", 1)
		e.Note(fmt.Sprintf("The runs of %s, which %s, are missing or out of date here; run `%s` to bring them up to date.", path, why, command))
	case why != "":
		sum, err := s.Require(path, why)
		if err != nil {
			panic(fmt.Errorf("exp: Section(%q): %w", name, err))
		}
		e.count(sum)
		members = e.members(ctx, name)
	case !s.ReportOnly:
		e.count(execute.Summary{Cached: len(members)})
	}
	if len(members) == 0 {
		return nil
	}
	todo := make([]declared, len(members))
	for i, m := range members {
		var r Run
		if err := json.Unmarshal([]byte(m.Declared), &r); err != nil {
			panic(fmt.Errorf("exp: Section(%q): run %.12s as declared (%q): %w", name, m.Key, m.Declared, err))
		}
		todo[i] = declared{run: r, used: m.Dataset, job: job.Canonical{Key: m.Key}}
		if !strings.EqualFold(m.Dataset, r.Dataset) {
			e.noteStandIn(r.Dataset, m.Dataset)
		}
	}
	return e.collect(ctx, todo, name+" runs")
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
