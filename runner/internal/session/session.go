package session

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/report"
	"github.com/oe-lab/oe/runner/store"
)

// Session is one script execution.
type Session struct {
	// Name is the experiment's name (the script's base name).
	Name string
	// ScriptDir is the script's folder; scripts' relative paths resolve
	// against it.
	ScriptDir string
	// Profile is smoke, quick or paper.
	Profile string
	// ReportOnly forbids executing runs: results come from the store alone.
	ReportOnly bool
	// DeclareOnly collects the runs the script declares and nothing else:
	// results carry the runs' statuses but no metrics, and no figure is
	// drawn (runner.Declare, and Section where it executes nothing).
	DeclareOnly bool
	// Estimate, when set, estimates how long a run missing from the store
	// would take (runner/plan's Model): the report states the cost of its
	// missing runs.
	Estimate func(job.Config) time.Duration
	// Store is the run cache and Exec executes runs into it.
	Store *store.Store
	Exec  *execute.Executor
	// Command is the command line that reruns the experiment.
	Command string
	// Parent is the execution that required this one through exp's
	// Section (nil for a script oerun was given).
	Parent *Session
	// Require executes the script at path at Profile, as oerun would (its
	// runs, its report), with this session as its Parent; why says what
	// made it necessary. It returns what the script executed.
	Require func(path, why string) (execute.Summary, error)
	// DeclareScript runs the script at path at Profile declare-only, with
	// this session as its Parent, and returns the runs it declares, stored
	// or not: what Section reads where it executes nothing (see Executes).
	// Runs the store lacks reach the executor's Defer, as the script's own
	// would.
	DeclareScript func(path string) ([]Declaration, error)

	mu sync.Mutex
	// Doc is the report the script builds (nil until exp.Begin).
	Doc *report.Doc
	// Summary totals the runs of every exp Run call.
	Summary execute.Summary
	// declared are the runs the script declared or read, each once, in
	// order; seen holds their keys.
	declared []Declaration
	seen     map[string]bool
	// skippedForData counts, by dataset, the runs skipped because their
	// data is not here (SkipForData).
	skippedForData map[string]int
	// check names the check the script is making (SetCheck), and awaited
	// are the groups of runs its checks wait for (Await), in order.
	check   string
	awaited []Awaited
}

// Awaited is a group of runs that one of a script's checks compares (a
// finding of experiments/reproduction.go on one dataset) while the store
// lacks some of them: the check is judged there once they are stored.
type Awaited struct {
	// Check names the check and Group the group ("4.8: …" and "mnist
	// (fmnist)").
	Check, Group string
	// Keys are the keys of the group's runs the store lacks.
	Keys []string
}

// SetCheck names the check the script makes from now on (empty: none), which
// the groups it awaits are noted under, and returns the name it replaces.
func (s *Session) SetCheck(check string) (previous string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	previous, s.check = s.check, check
	return previous
}

// Await notes that the current check compares a group of runs that the
// store lacks the runs keys of.
func (s *Session) Await(group string, keys []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.awaited = append(s.awaited, Awaited{Check: s.check, Group: group, Keys: slices.Clone(keys)})
}

// Awaited returns the groups the script's checks await, in the order they
// were noted.
func (s *Session) Awaited() []Awaited {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.awaited)
}

// SkipForData notes that the script left out a run because its dataset's
// files are not here (and it has no stand-in) and the store lacks it: an
// execution so is not complete, and is not recorded as the script's runs
// at the profile.
func (s *Session) SkipForData(dataset string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.skippedForData == nil {
		s.skippedForData = map[string]int{}
	}
	s.skippedForData[dataset]++
}

// SkippedForData returns, by dataset, the runs SkipForData noted (empty
// where none was).
func (s *Session) SkippedForData() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.skippedForData)
}

// Declaration is a run that a script declared or read.
type Declaration struct {
	// Job is the run's canonical config and key.
	Job job.Canonical
	// Declared is the run as the script declared it (JSON of runner/exp's
	// Run) and Dataset the dataset it loads: the declared one or its
	// stand-in.
	Declared, Dataset string
}

// Executes reports whether the script's runs are executed where missing:
// not under ReportOnly, nor where the executor defers them.
func (s *Session) Executes() bool { return !s.ReportOnly && s.Exec.Defer == nil }

// Lock and Unlock guard Doc and Summary.
func (s *Session) Lock()   { s.mu.Lock() }
func (s *Session) Unlock() { s.mu.Unlock() }

// Declare notes that the script declared (or read) the run d. A key
// declared again keeps its first place.
func (s *Session) Declare(d Declaration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[d.Job.Key] {
		return
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	s.seen[d.Job.Key] = true
	s.declared = append(s.declared, d)
}

// Declared returns the runs declared so far, in order.
func (s *Session) Declared() []Declaration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Declaration(nil), s.declared...)
}

// Members returns the runs declared so far, in order, as the store records
// them.
func (s *Session) Members() []store.Member {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]store.Member, len(s.declared))
	for i, d := range s.declared {
		out[i] = store.Member{Key: d.Job.Key, Declared: d.Declared, Dataset: d.Dataset}
	}
	return out
}

// Requires returns the names of the executions that led to this one, the
// script oerun was given first and this one last.
func (s *Session) Requires() []string {
	var chain []string
	for p := s; p != nil; p = p.Parent {
		chain = append([]string{p.Name}, chain...)
	}
	return chain
}

// ScriptSHA256 returns the hex SHA-256 of a script file, which tells whether
// the script changed since an execution.
func ScriptSHA256(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:]), nil
}

var (
	mu      sync.Mutex
	current *Session
)

// Set makes s the current session (nil: none) and returns the one it
// replaces. A script executes one at a time; a script that another requires
// runs inside it, so its session replaces the requiring one's until it
// completes.
func Set(s *Session) (previous *Session) {
	mu.Lock()
	defer mu.Unlock()
	previous, current = current, s
	return previous
}

// Current returns the current session, or nil outside a script execution.
func Current() *Session {
	mu.Lock()
	defer mu.Unlock()
	return current
}
