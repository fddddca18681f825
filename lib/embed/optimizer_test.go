package embed

import (
	"errors"
	"strings"
	"testing"
)

func TestParseOptimizer(t *testing.T) {
	tests := []struct {
		in   string
		want Optimizer
		err  string
	}{
		{"", "", ""},
		{" Adam ", OptimizerAdam, ""},
		{"LBFGS", OptimizerLBFGS, ""},
		{"sgd", "", `unknown optimizer "sgd", want adam or lbfgs`},
	}
	for _, tc := range tests {
		got, err := ParseOptimizer(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseOptimizer(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseOptimizer(%q) = %q, %v, want %q", tc.in, got, err, tc.want)
		}
	}
}

// A method's default optimiser resolves to "" (so that naming it keeps a
// run config's key) and in Fit to itself; others it lists to themselves;
// the rest are errors naming the method and what it takes.
func TestResolveOptimizer(t *testing.T) {
	both := Info{Name: "both", Optimizers: []Optimizer{OptimizerAdam, OptimizerLBFGS}}
	adamOnly := Info{Name: "adamonly", Optimizers: []Optimizer{OptimizerAdam}}
	own := Info{Name: "own"}
	tests := []struct {
		info     Info
		in       string
		resolved Optimizer // ResolveOptimizer
		fit      Optimizer // Options.OptimizerFor
		err      string
	}{
		{both, "", "", OptimizerAdam, ""},
		{both, "adam", "", OptimizerAdam, ""},
		{both, "lbfgs", OptimizerLBFGS, OptimizerLBFGS, ""},
		{adamOnly, "lbfgs", "", "", `adamonly has no optimizer "lbfgs", want adam`},
		{own, "", "", "", ""},
		{own, "adam", "", "", `own has no optimizer "adam": it runs its own optimiser only`},
		{both, "newton", "", "", `unknown optimizer "newton"`},
	}
	for _, tc := range tests {
		got, err := tc.info.ResolveOptimizer(tc.in)
		fit, ferr := Options{Optimizer: Optimizer(tc.in)}.OptimizerFor(tc.info.Name, tc.info.Optimizers...)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || ferr == nil || ferr.Error() != err.Error() {
				t.Errorf("%s %q: errors %v and %v, want %q", tc.info.Name, tc.in, err, ferr, tc.err)
			}
			continue
		}
		if err != nil || got != tc.resolved || ferr != nil || fit != tc.fit {
			t.Errorf("%s %q: resolved %q, %v; in Fit %q, %v; want %q and %q", tc.info.Name, tc.in, got, err, fit, ferr, tc.resolved, tc.fit)
		}
	}
}

func TestResolveBackendFor(t *testing.T) {
	gpu := Info{Name: "gpu", Backends: map[Backend]func() error{BackendCUDA: func() error { return nil }}}
	tests := []struct {
		backend string
		o       Optimizer
		want    Backend
		err     bool
	}{
		{"auto", "", BackendCUDA, false},
		{"auto", OptimizerAdam, BackendCUDA, false},
		{"auto", OptimizerLBFGS, BackendCPU, false},
		{"cuda", OptimizerLBFGS, "", true},
		{"cpu", OptimizerLBFGS, BackendCPU, false},
		{"tpu", OptimizerLBFGS, "", true},
	}
	for _, tc := range tests {
		got, err := gpu.ResolveBackendFor(tc.backend, tc.o)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ResolveBackendFor(%q, %q) = %q, %v; want %q (error: %v)", tc.backend, tc.o, got, err, tc.want, tc.err)
		}
	}
	if _, err := gpu.ResolveBackendFor("cuda", OptimizerLBFGS); !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), "CPU only") {
		t.Errorf("cuda with lbfgs: %v, want ErrNotSupported saying CPU only", err)
	}
}
