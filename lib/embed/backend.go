package embed

import (
	"errors"
	"fmt"
	"strings"
)

// Backend is where a method runs. The spellings are those stored in run
// configs and results.db.
type Backend string

// Backends an Options.Backend or a run config may name.
const (
	// BackendCPU runs on the CPU; every method supports it. The empty
	// string means the same.
	BackendCPU Backend = "cpu"
	// BackendCUDA runs on an NVIDIA GPU through lib/cuda: only in a binary
	// built with -tags cuda, on a machine with a device, and only for the
	// methods whose Info lists it (SOE, STE, t-STE, CKL-x, GNMDS-x, OENN),
	// and only with an optimiser that has a GPU path (not L-BFGS).
	BackendCUDA Backend = "cuda"
	// BackendAuto is BackendCUDA where the method supports it and CUDA
	// works in this binary on this machine, else BackendCPU.
	BackendAuto Backend = "auto"
)

// String returns the backend's name.
func (b Backend) String() string { return string(b) }

// backendAliases maps accepted spellings to the canonical names; "gpu" is
// the name older configs and scripts use for CUDA.
var backendAliases = map[string]Backend{
	"": BackendCPU, "cpu": BackendCPU, "cuda": BackendCUDA, "gpu": BackendCUDA, "auto": BackendAuto,
}

// ParseBackend returns the canonical backend a name (a string or a
// Backend) spells: case and surrounding space ignored, "" meaning cpu, "gpu"
// an alias of cuda. It returns an error listing the accepted names for any
// other.
func ParseBackend[S ~string](name S) (Backend, error) {
	b, ok := backendAliases[strings.ToLower(strings.TrimSpace(string(name)))]
	if !ok {
		return "", fmt.Errorf("embed: unknown backend %q, want cpu, cuda (alias gpu) or auto", string(name))
	}
	return b, nil
}

// ResolveBackend returns the backend a run of the method on the named
// backend uses: cpu or cuda, auto decided by probing (Info.Backends). It
// fails for an unknown name and for cuda on a method without it
// (ErrNotSupported), but not when CUDA is merely unavailable here — run
// configs must keep their meaning (and cache key) on machines without a
// GPU; Available says that.
func (i Info) ResolveBackend(name string) (Backend, error) {
	b, err := ParseBackend(name)
	if err != nil {
		return "", err
	}
	switch b {
	case BackendCUDA:
		if i.Backends[BackendCUDA] == nil {
			return "", NotSupported(i.Name, b)
		}
	case BackendAuto:
		b = BackendCPU
		if probe := i.Backends[BackendCUDA]; probe != nil && probe() == nil {
			b = BackendCUDA
		}
	}
	return b, nil
}

// Available returns nil when the method can run on backend b (any
// spelling ParseBackend accepts) in this binary on this machine, else why
// not: for cuda, "built without CUDA" or the device's error.
func (i Info) Available(b Backend) error {
	b, err := i.ResolveBackend(string(b))
	if err != nil || b == BackendCPU {
		return err
	}
	if err := i.Backends[b](); err != nil {
		return fmt.Errorf("%s on %s: %w", i.Name, b, err)
	}
	return nil
}

// ErrNotSupported is wrapped by the error of a method asked to run on a
// backend it does not implement.
var ErrNotSupported = errors.New("not supported")

// NotSupported returns the error of method asked to run on backend, naming
// the methods that do run there; it wraps ErrNotSupported.
func NotSupported(method string, backend Backend) error {
	var on []string
	for _, name := range Names() {
		if info, err := Lookup(name); err == nil && info.Backends[backend] != nil {
			on = append(on, info.Name)
		}
	}
	also := "no method runs there"
	if len(on) > 0 {
		also = "only " + strings.Join(on, ", ") + " do"
	}
	return fmt.Errorf("embed: %s is %w on %s (%s)", method, ErrNotSupported, backend, also)
}

// RequireCPU returns nil when the options' backend lets a CPU-only method
// run (cpu, empty or auto), else an error wrapping ErrNotSupported. CPU-only
// methods call it first in Fit.
func (o Options) RequireCPU(method string) error {
	b, err := ParseBackend(o.Backend)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if b == BackendCUDA {
		return NotSupported(method, b)
	}
	return nil
}
