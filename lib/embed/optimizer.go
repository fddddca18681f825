package embed

import (
	"fmt"
	"strings"
)

// Optimizer is the algorithm a method minimises its objective with. The
// spellings are those stored in run configs and results.db; the empty
// string means the method's default (Info.Optimizers).
type Optimizer string

// Optimizers an Options.Optimizer or a run config may name.
const (
	// OptimizerAdam is Adam with AMSGrad (lib/optim) on batches of
	// triplets, as the paper runs every method but FORTE.
	OptimizerAdam Optimizer = "adam"
	// OptimizerLBFGS is L-BFGS (gonum/optimize) on the full batch of
	// triplets, as cblearn and van der Maaten's code minimise the
	// embedding-space objectives: one iteration counts as an epoch for the
	// stopping rule and the epoch cap. It runs on the CPU only.
	OptimizerLBFGS Optimizer = "lbfgs"
)

// optimizers are the known optimisers, in the order messages list them.
var optimizers = []Optimizer{OptimizerAdam, OptimizerLBFGS}

// String returns the optimiser's name.
func (o Optimizer) String() string { return string(o) }

// ParseOptimizer returns the optimiser a name (a string or an Optimizer)
// spells, case and surrounding space ignored; "" stays "" (the method's
// default). Any other name is an error listing the known ones.
func ParseOptimizer[S ~string](name S) (Optimizer, error) {
	o := Optimizer(strings.ToLower(strings.TrimSpace(string(name))))
	if o == "" {
		return "", nil
	}
	for _, known := range optimizers {
		if o == known {
			return o, nil
		}
	}
	return "", fmt.Errorf("embed: unknown optimizer %q, want %s", string(name), optimizerList(optimizers))
}

// optimizerList joins names for a message: "adam", "adam or lbfgs".
func optimizerList(list []Optimizer) string {
	names := make([]string, len(list))
	for i, o := range list {
		names[i] = string(o)
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ResolveOptimizer returns the optimiser a run of the method with the
// named one uses, "" for its default (so that naming the default and naming
// none give the same run config): the name must be one of Info.Optimizers,
// or empty. The error names the method's optimisers.
func (i Info) ResolveOptimizer(name string) (Optimizer, error) {
	o, err := ParseOptimizer(name)
	if err != nil || o == "" {
		return "", err
	}
	for k, supported := range i.Optimizers {
		if o == supported {
			if k == 0 {
				return "", nil
			}
			return o, nil
		}
	}
	if len(i.Optimizers) == 0 {
		return "", fmt.Errorf("embed: %s has no optimizer %q: it runs its own optimiser only (give none)", i.Name, o)
	}
	return "", fmt.Errorf("embed: %s has no optimizer %q, want %s", i.Name, o, optimizerList(i.Optimizers))
}

// OptimizerFor resolves Options.Optimizer for a method whose optimisers
// are supported, its default first (none: it has its own only, and Optimizer
// must be empty). Methods call it first in Fit.
func (o Options) OptimizerFor(method string, supported ...Optimizer) (Optimizer, error) {
	info := Info{Name: method, Optimizers: supported}
	got, err := info.ResolveOptimizer(string(o.Optimizer))
	if err != nil {
		return "", err
	}
	if got == "" && len(supported) > 0 {
		got = supported[0]
	}
	return got, nil
}

// CPUOnly reports whether the optimiser has no GPU path (L-BFGS).
func (o Optimizer) CPUOnly() bool { return o == OptimizerLBFGS }

// ResolveBackendFor is ResolveBackend for a run with the named optimiser
// (already resolved): an optimiser without a GPU path (CPUOnly) makes cuda
// an error and auto the CPU, whatever the device.
func (i Info) ResolveBackendFor(name string, o Optimizer) (Backend, error) {
	if !o.CPUOnly() {
		return i.ResolveBackend(name)
	}
	b, err := ParseBackend(name)
	if err != nil {
		return "", err
	}
	if b == BackendCUDA {
		return "", fmt.Errorf("embed: %s with optimizer %s is %w on %s (%s runs on the CPU only: use backend cpu or auto)",
			i.Name, o, ErrNotSupported, b, o)
	}
	return BackendCPU, nil
}
