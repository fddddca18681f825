package embed

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/triplets"
)

func TestPhysicalMemory(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, text string
		want       int64
		ok         bool
	}{
		{"meminfo", "MemTotal:       24576000 kB\nMemFree: 1 kB\n", 24576000 << 10, true},
		{"no total", "MemFree: 1 kB\n", 0, false},
		{"garbage", "MemTotal: lots kB\n", 0, false},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := physicalMemory(path)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%s: got %d, %v; want %d, ok=%v", c.name, got, err, c.want, c.ok)
		}
	}
	MemoryLimit = 0
	if lim := memoryLimit(); lim <= 0 {
		t.Errorf("default limit %d", lim)
	}
}

// TestCheckHoldsProblemsToMemory: a problem of far more items than its
// triplets name (an explicit n) fails Check with ErrTooLarge, naming n,
// instead of a method allocating its n×d state and the process dying.
func TestCheckHoldsProblemsToMemory(t *testing.T) {
	defer func(old int64) { MemoryLimit = old }(MemoryLimit)
	MemoryLimit = 1 << 30
	train := &triplets.Set{N: 3, Idx: []int32{0, 1, 2, 1, 2, 0}}
	cases := []struct {
		name    string
		p       Problem
		passive bool
		tooBig  bool
	}{
		{"small passive", Problem{Dim: 2, Train: train}, true, false},
		{"passive, n = 2·10⁹", Problem{N: 2_000_000_000, Dim: 2, Train: train}, true, true},
		{"active, n = 2·10⁹", Problem{N: 2_000_000_000, Dim: 2, Oracle: &triplets.Oracle{}}, false, true},
	}
	for _, tc := range cases {
		err := tc.p.Check(tc.passive)
		if got := errors.Is(err, ErrTooLarge); got != tc.tooBig {
			t.Errorf("%s: error %v, want ErrTooLarge: %v", tc.name, err, tc.tooBig)
		}
		if tc.tooBig && !strings.Contains(err.Error(), "n=2000000000") {
			t.Errorf("%s: error %q does not name n", tc.name, err)
		}
	}
}
