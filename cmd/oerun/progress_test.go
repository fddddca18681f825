package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressBar(t *testing.T) {
	tests := []struct {
		name           string
		bound          bool
		done, total    int
		want, wantNone []string
	}{
		{"half way, fixed total", false, 5, 10, []string{"[############............]", " 5/10", "ETA "}, []string{"ETA ≤"}},
		{"half way, may stop early", true, 50, 100, []string{"ETA ≤"}, nil},
		{"finished", false, 10, 10, []string{"[########################]", "10/10"}, []string{"ETA"}},
	}
	for _, tc := range tests {
		var buf bytes.Buffer
		bar := newProgressBar(&buf, "soe", tc.total, tc.bound)
		bar.start = time.Now().Add(-time.Second)
		bar.Update(tc.done, "train err 0.1234")
		line := buf.String()
		if !strings.HasPrefix(line, "\rsoe [") || !strings.Contains(line, "train err 0.1234") {
			t.Errorf("%s: line %q", tc.name, line)
		}
		for _, w := range tc.want {
			if !strings.Contains(line, w) {
				t.Errorf("%s: %q lacks %q", tc.name, line, w)
			}
		}
		for _, w := range tc.wantNone {
			if strings.Contains(line, w) {
				t.Errorf("%s: %q has %q", tc.name, line, w)
			}
		}
	}
}

// Updates closer together than redrawEvery are dropped, except the last;
// Finish ends the line without an ETA and wipes a longer previous line.
func TestProgressBarThrottleAndFinish(t *testing.T) {
	var buf bytes.Buffer
	bar := newProgressBar(&buf, "x", 1000, true)
	for i := 1; i <= 500; i++ {
		bar.Update(i, "a long status text that is wide")
	}
	if n := strings.Count(buf.String(), "\r"); n != 1 {
		t.Errorf("%d redraws for 500 quick updates, want 1", n)
	}
	buf.Reset()
	bar.Finish(500, "done")
	out := buf.String()
	if !strings.HasSuffix(out, "\n") || strings.Contains(out, "ETA") || !strings.Contains(out, "500/1000  done") {
		t.Errorf("finish line %q", out)
	}
	if !strings.HasSuffix(strings.TrimRight(out, "\n"), " ") {
		t.Errorf("finish line %q does not wipe the longer previous line", out)
	}
}
