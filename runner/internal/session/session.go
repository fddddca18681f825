package session

import (
	"sync"

	"github.com/oe-lab/oe/runner/execute"
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
	// Store is the run cache and Exec executes runs into it.
	Store *store.Store
	Exec  *execute.Executor
	// Command is the command line that reruns the experiment.
	Command string

	mu sync.Mutex
	// Doc is the report the script builds (nil until exp.Begin).
	Doc *report.Doc
	// Summary totals the runs of every exp Run call.
	Summary execute.Summary
}

// Lock and Unlock guard Doc and Summary.
func (s *Session) Lock()   { s.mu.Lock() }
func (s *Session) Unlock() { s.mu.Unlock() }

var (
	mu      sync.Mutex
	current *Session
)

// Set makes s the current session (nil ends it). One script runs at a time.
func Set(s *Session) {
	mu.Lock()
	defer mu.Unlock()
	current = s
}

// Current returns the current session, or nil outside a script execution.
func Current() *Session {
	mu.Lock()
	defer mu.Unlock()
	return current
}
