package exp

import (
	"context"
	"errors"
	"fmt"

	"github.com/oe-lab/oe/lib/embed"
)

// TryBackend asks the evaluation whether runs on a backend ("cpu", "cuda",
// its alias "gpu", or "auto") work in this build on this machine: it fits
// SOE to 16 uniform points for one epoch on that backend, storing nothing,
// and returns why that failed (nil when it worked): for cuda in a binary
// built without it (make cuda builds one) or without a device, the reason.
// A script tells its report so; its runs on a backend that does not work
// here are declared all the same, and the runner leaves them missing for a
// machine where it does, recording no failure (execute.Executor.Runnable).
func (e *Experiment) TryBackend(backend string) error {
	r := Run{Dataset: "uniform", N: 16, Lambda: 1, Algorithm: "soe", Dim: 2, MaxEpochs: 1, Seed: 1, Backend: backend}
	c, err := r.config(r.Dataset).Normalize()
	if err != nil {
		return err
	}
	if e.s.Exec == nil || e.s.Exec.Eval == nil {
		return errors.New("no evaluation to ask")
	}
	out, err := e.s.Exec.Eval(context.Background(), c.Config, 1)
	if err == nil && out == nil {
		err = fmt.Errorf("backend %s returned no outcome", backend)
	}
	return err
}

// OnBackend returns those of algorithms that have an implementation on
// backend ("cpu", "cuda" or its alias "gpu"), in the order given, whether
// or not this machine can run it (TryBackend says that). A run on a backend
// its method lacks cannot be declared, so a script that compares backends
// declares its GPU runs for these methods alone.
func OnBackend(algorithms []string, backend string) []string {
	var out []string
	for _, a := range algorithms {
		if info, err := embed.Lookup(a); err == nil {
			if _, err := info.ResolveBackend(backend); err == nil {
				out = append(out, a)
			}
		}
	}
	return out
}
