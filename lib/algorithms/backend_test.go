package algorithms_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

// TestCUDAOnlyWhereListed checks that every method without a cuda backend
// in its registry entry (the Gram and active methods) refuses
// Backend "cuda" with an error wrapping embed.ErrNotSupported that names it,
// both when the backend is resolved (run configs, the CLI) and in Fit.
func TestCUDAOnlyWhereListed(t *testing.T) {
	problem := uniformProblem(t, 30, 200, triplets.Noise{})
	cpuOnly := 0
	for _, name := range embed.Names() {
		info, err := embed.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if info.Backends[embed.BackendCUDA] != nil {
			continue
		}
		cpuOnly++
		t.Run(name, func(t *testing.T) {
			if _, err := info.ResolveBackend("cuda"); !errors.Is(err, embed.ErrNotSupported) || !strings.Contains(err.Error(), name) {
				t.Errorf("ResolveBackend(cuda): %v, want an error naming %s and wrapping ErrNotSupported", err, name)
			}
			alg, err := info.New(nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = alg.Fit(context.Background(), problem(info), embed.Options{Backend: embed.BackendCUDA, MaxEpochs: 1})
			if !errors.Is(err, embed.ErrNotSupported) || !strings.Contains(err.Error(), name) {
				t.Errorf("Fit on cuda: %v, want an error naming %s and wrapping ErrNotSupported", err, name)
			}
		})
	}
	if cpuOnly == 0 {
		t.Fatal("no CPU-only method registered")
	}
}
