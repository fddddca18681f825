package progress

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// fakeClock is a settable time source for Lines under test.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// testBar is a Bar on a Line that is or is not a terminal, on a fake clock
// and without the keep-alive goroutine (the test calls tick).
func testBar(out *bytes.Buffer, tty bool, total int) (*Bar, *fakeClock) {
	clock := &fakeClock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	b := &Bar{label: "general", total: total, start: clock.t}
	b.line = newLine(out, b.render, tty, clock.now)
	return b, clock
}

func TestBarLogLines(t *testing.T) {
	var out bytes.Buffer
	b, clock := testBar(&out, false, 4)
	b.Cached(1)
	clock.advance(time.Second) // too soon for a new line
	b.Done(false, 0, 0)
	clock.advance(HeartbeatEvery) // nothing changes for 30 s: a heartbeat
	b.line.tick()
	clock.advance(time.Second) // too soon after the heartbeat
	b.line.tick()
	b.Done(true, 0, 0)
	clock.advance(10 * time.Second)
	b.Done(false, 0, 0)
	b.Finish()
	b.Finish() // a second Finish does nothing
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		"general [#######-----------------------] 1/4 runs (1 cached, 0 failed) 0s",
		"general [###############---------------] 2/4 runs (1 cached, 0 failed) 31s, about 1m2s left",
		"general [##############################] 4/4 runs (1 cached, 1 failed) 42s",
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d = %q, want %q", i, lines[i], want[i])
		}
	}
	if strings.Contains(out.String(), "\r") {
		t.Error("a log file got carriage returns")
	}
}

// With estimates, the time left is the estimates of the runs not done,
// scaled by the pace of the runs done against theirs and shared among the
// workers: neither a quick first run nor the wait for a long one moves it.
func TestBarTimeLeftFollowsEstimates(t *testing.T) {
	const h = time.Hour
	tests := []struct {
		name    string
		workers int
		// each run done: its estimate and how long it took
		done    [][2]time.Duration
		elapsed time.Duration
		// budget is when the runs stop, after the start (0: no deadline)
		budget time.Duration
		want   string
	}{
		{name: "as estimated", workers: 1, done: [][2]time.Duration{{h, h}}, elapsed: h, want: "about 9h0m0s left"},
		{name: "twice as fast, long wait since", workers: 1, done: [][2]time.Duration{{h, h / 2}}, elapsed: 5 * h, want: "about 4h30m0s left"},
		{name: "quick resumed run first", workers: 1, done: [][2]time.Duration{{6 * time.Minute, 6 * time.Minute}}, elapsed: 2 * h, want: "about 9h54m0s left"},
		{name: "two workers", workers: 2, done: [][2]time.Duration{{h, h}, {h, h}}, elapsed: h, want: "about 4h0m0s left"},
		{name: "nothing executed yet", workers: 1, elapsed: h, want: ""},
		{name: "the budget ends first", workers: 1, done: [][2]time.Duration{{h, h}}, elapsed: h, budget: 3 * h, want: "2h0m0s left of the budget"},
		{name: "the runs end before the budget", workers: 1, done: [][2]time.Duration{{h, h}}, elapsed: h, budget: 20 * h, want: "about 9h0m0s left"},
		{name: "nothing executed yet, under a budget", workers: 1, elapsed: h, budget: 3 * h, want: "2h0m0s left of the budget"},
		{name: "past the budget's end", workers: 1, elapsed: 4 * h, budget: 3 * h, want: "0s left of the budget"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		b, clock := testBar(&out, false, 10)
		b.Expect(10*h, tt.workers)
		if tt.budget > 0 {
			b.Until(clock.now().Add(tt.budget))
		}
		for _, d := range tt.done {
			b.Done(false, d[0], d[1])
		}
		clock.advance(tt.elapsed)
		s := b.String()
		if tt.want == "" {
			if strings.Contains(s, "left") {
				t.Errorf("%s: %q gives a time left", tt.name, s)
			}
			continue
		}
		if !strings.HasSuffix(s, ", "+tt.want) {
			t.Errorf("%s: %q, want it to end in %q", tt.name, s, tt.want)
		}
	}
}

func TestLineTerminal(t *testing.T) {
	var out bytes.Buffer
	status := "a long status text"
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := newLine(&out, func() string { return status }, true, clock.now)
	for i := 0; i < 50; i++ {
		l.Update(nil) // all within one instant: one redraw
	}
	if n := strings.Count(out.String(), "\r"); n != 1 {
		t.Errorf("%d redraws for 50 updates in one instant, want 1", n)
	}
	clock.advance(tickEvery)
	l.tick() // the elapsed time moves while nothing changes
	if n := strings.Count(out.String(), "\r"); n != 2 {
		t.Errorf("%d redraws after a tick, want 2", n)
	}
	out.Reset()
	l.Finish(func() { status = "done" })
	if got, want := out.String(), "\rdone"+strings.Repeat(" ", len("a long status text")-len("done"))+"\n"; got != want {
		t.Errorf("final line %q, want %q (wiping the longer line before it)", got, want)
	}
}

// NewLine on anything but a terminal writes lines, not redraws.
func TestNewLineNotTerminal(t *testing.T) {
	var out bytes.Buffer
	l := NewLine(&out, func() string { return "x" })
	l.Update(nil)
	l.Finish(nil)
	if out.String() != "x\nx\n" {
		t.Errorf("output %q, want two lines", out.String())
	}
}

func ExampleBar() {
	b := New(new(bytes.Buffer), "noise", 10)
	defer b.Finish()
	b.Cached(4)
	b.Done(false, 0, 0)
	fmt.Println(strings.Fields(b.String())[2])
	// Output: 5/10
}

// A Line renders the caller's state, which changes inside Update; in a log
// (here a buffer) it prints the first state and then a line at most every
// HeartbeatEvery, and the last state on Finish.
func ExampleLine() {
	var out bytes.Buffer
	done := 0
	l := NewLine(&out, func() string { return fmt.Sprintf("%d/3 files", done) })
	for i := 0; i < 3; i++ {
		l.Update(func() { done++ })
	}
	l.Finish(nil)
	fmt.Print(out.String())
	// Output:
	// 1/3 files
	// 3/3 files
}
