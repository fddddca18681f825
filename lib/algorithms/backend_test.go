package algorithms_test

import (
	"context"
	"errors"
	"slices"
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

// TestOptimizersWhereListed checks that every method accepts the optimisers
// its registry entry lists (the first its default, which resolves to "")
// and refuses the others in Fit and when resolving a name, with an error
// naming the method; and that an optimiser without a GPU path (L-BFGS) is
// refused on cuda and sends auto to the CPU.
func TestOptimizersWhereListed(t *testing.T) {
	problem := uniformProblem(t, 30, 200, triplets.Noise{})
	for _, name := range embed.Names() {
		info, err := embed.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			for _, o := range []embed.Optimizer{embed.OptimizerAdam, embed.OptimizerLBFGS} {
				listed := slices.Contains(info.Optimizers, o)
				resolved, err := info.ResolveOptimizer(string(o))
				switch {
				case listed && err != nil:
					t.Errorf("ResolveOptimizer(%s): %v", o, err)
				case listed && (resolved == "") != (o == info.Optimizers[0]):
					t.Errorf("ResolveOptimizer(%s) = %q: want \"\" exactly for the default %s", o, resolved, info.Optimizers[0])
				case !listed && (err == nil || !strings.Contains(err.Error(), name)):
					t.Errorf("ResolveOptimizer(%s): %v, want an error naming %s", o, err, name)
				}
				if listed {
					continue
				}
				alg, err := info.New(nil)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := alg.Fit(context.Background(), problem(info), embed.Options{Optimizer: o, MaxEpochs: 1}); err == nil || !strings.Contains(err.Error(), name) {
					t.Errorf("Fit with %s: %v, want an error naming %s", o, err, name)
				}
			}
			if !slices.Contains(info.Optimizers, embed.OptimizerLBFGS) {
				return
			}
			if _, err := info.ResolveBackendFor("cuda", embed.OptimizerLBFGS); !errors.Is(err, embed.ErrNotSupported) {
				t.Errorf("cuda with lbfgs: %v, want ErrNotSupported", err)
			}
			if b, err := info.ResolveBackendFor("auto", embed.OptimizerLBFGS); b != embed.BackendCPU || err != nil {
				t.Errorf("auto with lbfgs: %v, %v; want cpu", b, err)
			}
		})
	}
	if _, err := embed.ParseOptimizer("sgd"); err == nil || !strings.Contains(err.Error(), "want adam or lbfgs") {
		t.Errorf("unknown optimiser: %v, want an error naming adam and lbfgs", err)
	}
}
