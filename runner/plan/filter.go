package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/job"
)

// Filter selects some of a plan's runs, as a campaign on one machine does:
// it leaves out the methods whose versions are about to change (their runs
// would be computed again), and runs larger than it means to reach. The
// zero Filter keeps every run.
type Filter struct {
	// Algorithms, when not empty, keeps only the runs of these methods;
	// Exclude leaves out the runs of these. Both hold registry names
	// (lib/embed), lower case.
	Algorithms, Exclude []string
	// Datasets, when not empty, keeps only the runs on these datasets: a
	// run whose data stands in for one of the paper's (FMNIST for COVTYPE)
	// is kept for either name. They are lib/datasets names, lower case.
	Datasets []string
	// MaxItems, when positive, keeps only the runs of at most this many
	// items (Items).
	MaxItems int
	// Backend, when not empty, keeps only the runs on this backend (job.CPU
	// or job.CUDA, as ParseBackend gives it): a GPU machine's share of a
	// campaign is the runs that scripts declare on cuda there.
	Backend string
}

// Keep reports whether f keeps the run c.
func (f Filter) Keep(c job.Config) bool {
	alg := strings.ToLower(c.Algorithm)
	switch {
	case len(f.Algorithms) > 0 && !slices.Contains(f.Algorithms, alg):
		return false
	case slices.Contains(f.Exclude, alg):
		return false
	// Datasets holds no empty name, so a run standing in for none is kept
	// by its own dataset alone.
	case len(f.Datasets) > 0 && !slices.Contains(f.Datasets, strings.ToLower(c.Dataset)) &&
		!slices.Contains(f.Datasets, strings.ToLower(c.StandsInFor)):
		return false
	case f.MaxItems > 0 && Items(c) > f.MaxItems:
		return false
	case f.Backend != "" && runBackend(c) != f.Backend:
		return false
	}
	return true
}

// Apply returns the runs f keeps and those it leaves out, each in the order
// given.
func (f Filter) Apply(runs []execute.Pending) (kept, left []execute.Pending) {
	for _, r := range runs {
		if f.Keep(r.Job.Config) {
			kept = append(kept, r)
		} else {
			left = append(left, r)
		}
	}
	return kept, left
}

// IsZero reports whether f keeps every run.
func (f Filter) IsZero() bool {
	return len(f.Algorithms) == 0 && len(f.Exclude) == 0 && len(f.Datasets) == 0 && f.MaxItems <= 0 && f.Backend == ""
}

// String describes f as its flags of oerun run and plan set it, e.g.
// "--exclude-algorithms oenn --max-items 7291" ("" for the zero Filter).
func (f Filter) String() string { return strings.Join(f.Args(), " ") }

// Args returns the command-line arguments of oerun run and plan that set f,
// e.g. ["--max-items", "7291"] (none for the zero Filter): what a Slurm
// task is given to select the same runs.
func (f Filter) Args() []string {
	var args []string
	if len(f.Algorithms) > 0 {
		args = append(args, "--algorithms", strings.Join(f.Algorithms, ","))
	}
	if len(f.Exclude) > 0 {
		args = append(args, "--exclude-algorithms", strings.Join(f.Exclude, ","))
	}
	if len(f.Datasets) > 0 {
		args = append(args, "--datasets", strings.Join(f.Datasets, ","))
	}
	if f.MaxItems > 0 {
		args = append(args, "--max-items", strconv.Itoa(f.MaxItems))
	}
	if f.Backend != "" {
		args = append(args, "--backend", f.Backend)
	}
	return args
}

// ParseAlgorithms reads a comma-separated list of methods, such as
// "soe,ste", as Filter holds them: registry names, lower case, each once.
// An empty list is nil; a name this build does not register is an error
// that lists the known ones.
func ParseAlgorithms(list string) ([]string, error) {
	return parseNames(list, func(name string) error {
		if _, err := embed.Lookup(name); err != nil {
			return fmt.Errorf("plan: %w", err)
		}
		return nil
	})
}

// ParseDatasets reads a comma-separated list of datasets, such as
// "uniform,covtype", as Filter holds them: lib/datasets names, lower case,
// each once. An empty list is nil; a name lib/datasets does not register is
// an error that lists the known ones.
func ParseDatasets(list string) ([]string, error) {
	return parseNames(list, func(name string) error {
		if _, err := datasets.Lookup(name); err != nil {
			return fmt.Errorf("plan: dataset %q: want one of %s", name, strings.Join(datasets.Names(), ", "))
		}
		return nil
	})
}

// parseNames reads a comma-separated list of names, lower case, each once,
// skipping empty ones; check returns the error for a name it does not know.
func parseNames(list string, check func(name string) error) ([]string, error) {
	var out []string
	for _, name := range strings.Split(list, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" || slices.Contains(out, name) {
			continue
		}
		if err := check(name); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, nil
}

// ParseBackend reads a backend as Filter holds it: job.CPU or job.CUDA, as
// lib/embed spells them ("gpu" is an alias of cuda). Empty and auto are
// errors: a filter names where runs were declared, and a run config's auto
// is resolved before it is stored.
func ParseBackend(name string) (string, error) {
	b, err := embed.ParseBackend(name)
	if err != nil || strings.TrimSpace(name) == "" || b == embed.BackendAuto {
		return "", fmt.Errorf("plan: backend %q: want cpu or cuda (gpu)", name)
	}
	return string(b), nil
}

// runBackend is the backend c runs on: a config that names none runs on the
// CPU (job.Config.Normalize resolves the rest).
func runBackend(c job.Config) string {
	if b, err := embed.ParseBackend(c.Backend); err == nil {
		return string(b)
	}
	return c.Backend
}
