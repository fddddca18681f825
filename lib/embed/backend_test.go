package embed

import (
	"errors"
	"strings"
	"testing"
)

func TestParseBackend(t *testing.T) {
	tests := []struct {
		in   string
		want Backend
		err  string
	}{
		{"", BackendCPU, ""},
		{" CPU", BackendCPU, ""},
		{"cuda", BackendCUDA, ""},
		{"GPU", BackendCUDA, ""},
		{"auto", BackendAuto, ""},
		{"opencl", "", `unknown backend "opencl"`},
	}
	for _, tc := range tests {
		got, err := ParseBackend(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseBackend(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseBackend(%q) = %q, %v, want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestResolveAndAvailable(t *testing.T) {
	noDevice := errors.New("no device here")
	cpuOnly := Info{Name: "cpuonly"}
	broken := Info{Name: "broken", Backends: map[Backend]func() error{BackendCUDA: func() error { return noDevice }}}
	working := Info{Name: "working", Backends: map[Backend]func() error{BackendCUDA: func() error { return nil }}}
	tests := []struct {
		info     Info
		backend  string
		resolved Backend
		// resolveErr and availErr are parts of the expected errors ("" none).
		resolveErr, availErr string
	}{
		{cpuOnly, "", BackendCPU, "", ""},
		{cpuOnly, "auto", BackendCPU, "", ""},
		{cpuOnly, "cuda", "", "cpuonly is not supported on cuda", "cpuonly is not supported on cuda"},
		{broken, "auto", BackendCPU, "", ""},
		{broken, "gpu", BackendCUDA, "", "broken on cuda: no device here"},
		{working, "auto", BackendCUDA, "", ""},
		{working, "cuda", BackendCUDA, "", ""},
		{working, "tpu", "", "unknown backend", "unknown backend"},
	}
	for _, tc := range tests {
		t.Run(tc.info.Name+"/"+tc.backend, func(t *testing.T) {
			got, err := tc.info.ResolveBackend(tc.backend)
			if !matches(err, tc.resolveErr) || (err == nil && got != tc.resolved) {
				t.Errorf("ResolveBackend = %q, %v; want %q, error %q", got, err, tc.resolved, tc.resolveErr)
			}
			if err := tc.info.Available(Backend(tc.backend)); !matches(err, tc.availErr) {
				t.Errorf("Available = %v, want error %q", err, tc.availErr)
			}
		})
	}
}

func TestRequireCPU(t *testing.T) {
	for b, want := range map[Backend]string{"": "", "cpu": "", "auto": "", "cuda": "m is not supported on cuda",
		"gpu": "m is not supported on cuda", "x": "unknown backend"} {
		if err := (Options{Backend: b}).RequireCPU("m"); !matches(err, want) {
			t.Errorf("backend %q: RequireCPU = %v, want error %q", b, err, want)
		}
	}
}

// matches reports whether err is nil where want is "", else contains want.
func matches(err error, want string) bool {
	if want == "" {
		return err == nil
	}
	return err != nil && strings.Contains(err.Error(), want)
}
