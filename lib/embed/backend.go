package embed

import (
	"fmt"
	"strings"
)

// Backends an Options.Backend or a run config may name.
const (
	// BackendCPU runs on the CPU; every method supports it. The empty
	// string means the same.
	BackendCPU = "cpu"
	// BackendCUDA runs on an NVIDIA GPU through lib/cuda: only in a binary
	// built with -tags cuda, on a machine with a device, and only for the
	// methods whose Info lists it (SOE, STE, t-STE, CKL-x, OENN).
	BackendCUDA = "cuda"
	// BackendAuto is BackendCUDA where the method supports it and CUDA
	// works in this binary on this machine, else BackendCPU.
	BackendAuto = "auto"
)

// backendAliases maps accepted spellings to the canonical names; "gpu" is
// the name older configs and scripts use for CUDA.
var backendAliases = map[string]string{
	"": BackendCPU, BackendCPU: BackendCPU, BackendCUDA: BackendCUDA, "gpu": BackendCUDA, BackendAuto: BackendAuto,
}

// ParseBackend returns the canonical name of a backend (case and surrounding
// space ignored, "" meaning cpu, "gpu" an alias of cuda), or an error
// listing the accepted names.
func ParseBackend(name string) (string, error) {
	b, ok := backendAliases[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return "", fmt.Errorf("embed: unknown backend %q, want cpu, cuda (alias gpu) or auto", name)
	}
	return b, nil
}

// ResolveBackend returns the backend a run of the method on the named
// backend uses: cpu or cuda, auto decided by probing (Info.Backends). It
// fails for an unknown name and for cuda on a method without it, but not
// when CUDA is merely unavailable here — run configs must keep their
// meaning (and cache key) on machines without a GPU; Available says that.
func (i Info) ResolveBackend(name string) (string, error) {
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

// Available returns nil when the method can run on the named backend in
// this binary on this machine, else why not: for cuda, "built without CUDA"
// or the device's error.
func (i Info) Available(name string) error {
	b, err := i.ResolveBackend(name)
	if err != nil || b == BackendCPU {
		return err
	}
	if err := i.Backends[b](); err != nil {
		return fmt.Errorf("%s on %s: %w", i.Name, b, err)
	}
	return nil
}

// NotSupported is the error of a method asked to run on a backend it does
// not implement.
func NotSupported(method, backend string) error {
	return fmt.Errorf("embed: %s is not supported on %s (only soe, ste, tste, cklx and oenn are)",
		method, backend)
}

// RequireCPU returns nil when the options' backend lets a CPU-only method
// run (cpu, empty or auto), else NotSupported. CPU-only methods call it
// first in Fit.
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
