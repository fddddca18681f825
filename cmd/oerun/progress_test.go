package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestEpochBarRender(t *testing.T) {
	tests := []struct {
		name           string
		bound          bool
		finished       bool
		done, total    int
		want, wantNone []string
	}{
		{"half way, fixed total", false, false, 5, 10, []string{"soe [############............]  5/10  train err 0.1234  1s, ETA 1s"}, []string{"ETA ≤"}},
		{"half way, may stop early", true, false, 50, 100, []string{"ETA ≤ 1s"}, nil},
		{"finished early", true, true, 50, 100, []string{" 50/100  train err 0.1234  1s"}, []string{"ETA"}},
		{"finished", false, false, 10, 10, []string{"[########################]", "10/10"}, []string{"ETA"}},
		{"no epochs reported", false, false, 0, 0, []string{"soe  train err 0.1234  1s"}, []string{"[", "ETA"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Unix(0, 0)
			b := &epochBar{label: "soe", total: tc.total, bound: tc.bound, start: start, now: func() time.Time { return start.Add(time.Second) },
				done: tc.done, status: "train err 0.1234", finished: tc.finished}
			line := b.render()
			for _, w := range tc.want {
				if !strings.Contains(line, w) {
					t.Errorf("%q lacks %q", line, w)
				}
			}
			for _, w := range tc.wantNone {
				if strings.Contains(line, w) {
					t.Errorf("%q has %q", line, w)
				}
			}
		})
	}
}

// In a log file (anything but a terminal) the bar writes whole lines, no
// carriage returns: the first state and the last, not one per epoch.
func TestEpochBarInLog(t *testing.T) {
	var out bytes.Buffer
	b := newEpochBar(&out, "soe", 1000, true)
	for e := 1; e <= 500; e++ {
		b.Update(e, "loss 1")
	}
	b.Finish(500, "converged")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if strings.Contains(out.String(), "\r") || len(lines) != 2 {
		t.Fatalf("log output %q, want two lines without carriage returns", out.String())
	}
	if !strings.Contains(lines[0], "  1/1000  loss 1") || !strings.Contains(lines[1], " 500/1000  converged") {
		t.Errorf("lines %q", lines)
	}
}
