package embed

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Params are an algorithm's hyper-parameters by name, as given on the command
// line or in an experiment config (e.g. {"mu": 0.1} for CKL-x).
type Params map[string]float64

// Factory builds an algorithm from its parameters. It rejects unknown names
// and out-of-range values with an error naming them.
type Factory func(Params) (Algorithm, error)

// Info describes a registered algorithm.
type Info struct {
	Name string
	// Active is true for methods that query an oracle.
	Active bool
	// Family is what the method optimises.
	Family Family
	// PaperMaxItems is the largest number of items the paper runs the
	// method on (0: no limit): it leaves the Gram-matrix methods out above
	// 10,000 items, for memory (Section 4.2 and Table 3's caption). Fit does
	// not enforce it; experiment scripts do.
	PaperMaxItems int
	// Version is bumped whenever a change alters the method's results; the
	// run cache keys on it.
	Version int
	// Params lists the accepted parameters with their defaults.
	Params Params
	// ParamDocs says what each parameter of Params means, by name: its
	// symbol, its range and what its default stands for (e.g. "0: d−1").
	ParamDocs map[string]string
	// LateParams names parameters of Params added after runs were cached:
	// a run's cache key (runner/job) holds one only when it is set to
	// another value than its default, so that the runs cached before it
	// existed keep their keys.
	LateParams []string
	// Doc is a one-line description.
	Doc string
	New Factory
	// Factored, for a Gram-matrix method, names the registered method that
	// minimises the same objective over the embedding X (K = XXᵀ) instead
	// of projected steps on K: CKL's is CKL-x (the paper's name), GNMDS's
	// GNMDS-x, FORTE's STE (FORTE's logistic loss log(1 + e^(dᵢⱼ−dᵢₖ)) is
	// STE's −log p). "" for the other methods.
	Factored string
	// Optimizers are the optimisers Options.Optimizer may name, the
	// method's default first; nil for methods that run their own optimiser
	// only (FORTE's line search, the landmark methods).
	Optimizers []Optimizer
	// Resumable says that a CPU fit with the method's default optimiser
	// (the first of Optimizers) given Options.Checkpoint keeps its state
	// there and resumes from it.
	Resumable bool
	// Backends maps each backend besides cpu that the method runs on
	// (BackendCUDA) to a probe that returns nil when it works in this
	// binary on this machine, else why not. Nil for CPU-only methods.
	Backends map[Backend]func() error
}

var (
	regMu    sync.RWMutex
	registry = map[string]Info{}
)

// Register adds an algorithm. It panics on a duplicate name, as it is called
// from init functions.
func Register(info Info) {
	regMu.Lock()
	defer regMu.Unlock()
	key := strings.ToLower(info.Name)
	if _, dup := registry[key]; dup {
		panic("embed: algorithm registered twice: " + info.Name)
	}
	registry[key] = info
}

// Lookup returns the registered algorithm called name (case-insensitive).
func Lookup(name string) (Info, error) {
	regMu.RLock()
	defer regMu.RUnlock()
	info, ok := registry[strings.ToLower(name)]
	if !ok {
		return Info{}, fmt.Errorf("embed: unknown algorithm %q (known: %s)", name, strings.Join(namesLocked(), ", "))
	}
	return info, nil
}

// New builds the algorithm called name with the given parameters; missing
// parameters take their defaults, unknown ones are an error.
func New(name string, p Params) (Algorithm, error) {
	info, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	for k := range p {
		if _, ok := info.Params[k]; !ok {
			return nil, fmt.Errorf("embed: %s has no parameter %q (%s)", info.Name, k, info.paramList())
		}
	}
	return info.New(p)
}

// ParamNames returns the names of the method's parameters, sorted.
func (info Info) ParamNames() []string {
	names := make([]string, 0, len(info.Params))
	for k := range info.Params {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// paramList says which parameters the method has, for an error message.
func (info Info) paramList() string {
	if len(info.Params) == 0 {
		return "it has none"
	}
	return "its parameters: " + strings.Join(info.ParamNames(), ", ")
}

// Names lists the registered algorithms, sorted.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	names := make([]string, 0, len(registry))
	for _, info := range registry {
		names = append(names, info.Name)
	}
	sort.Strings(names)
	return names
}

// Get returns p[name] if present, else def.
func (p Params) Get(name string, def float64) float64 {
	if v, ok := p[name]; ok {
		return v
	}
	return def
}

// ParseMethod reads a method as the command line and the bench programs
// write it: its registry name, optionally followed by parameters, each as
// ":name=value" ("cklx:init=1:mu=0.05"). It checks the syntax, not the
// names: New does that.
func ParseMethod(spec string) (name string, p Params, err error) {
	parts := strings.Split(strings.TrimSpace(spec), ":")
	if parts[0] == "" {
		return "", nil, fmt.Errorf("embed: method %q: no name", spec)
	}
	for _, kv := range parts[1:] {
		k, v, ok := strings.Cut(kv, "=")
		f, err := strconv.ParseFloat(v, 64)
		if !ok || k == "" || err != nil {
			return "", nil, fmt.Errorf("embed: method %q: want name:param=value, got %q", spec, kv)
		}
		if p == nil {
			p = Params{}
		}
		p[k] = f
	}
	return parts[0], p, nil
}

// MethodString writes a method as ParseMethod reads it, its parameters in
// name order.
func MethodString(name string, p Params) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(name)
	for _, k := range keys {
		fmt.Fprintf(&b, ":%s=%s", k, strconv.FormatFloat(p[k], 'g', -1, 64))
	}
	return b.String()
}
