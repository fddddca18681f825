package progress

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestBarCountsAndLogs(t *testing.T) {
	var out bytes.Buffer
	b := New(&out, "general", 4)
	clock := b.start
	b.now = func() time.Time { return clock }
	b.Cached(1)
	clock = clock.Add(time.Second) // too soon for a new line
	b.Done(false)
	clock = clock.Add(10 * time.Second)
	b.Done(true)
	b.Done(false)
	b.Finish()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	tests := []struct {
		line int
		want string
	}{
		{0, "1/4 runs (1 cached, 0 failed)"},
		{1, "3/4 runs (1 cached, 1 failed) 11s, about 6s left"},
		{2, "[##############################] 4/4 runs (1 cached, 1 failed) 11s"},
	}
	if len(lines) != len(tests) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(tests), out.String())
	}
	for _, tc := range tests {
		if !strings.Contains(lines[tc.line], tc.want) {
			t.Errorf("line %d = %q, want it to contain %q", tc.line, lines[tc.line], tc.want)
		}
	}
}

func ExampleBar() {
	b := New(new(bytes.Buffer), "noise", 10)
	b.Cached(4)
	b.Done(false)
	fmt.Println(strings.Fields(b.String())[2])
	// Output: 5/10
}
