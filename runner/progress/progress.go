package progress

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// width is the number of cells of the bar.
const width = 30

// Bar counts finished runs on a Line. It is safe for concurrent use.
type Bar struct {
	line                 *Line
	label                string
	total                int
	done, cached, failed int
	start                time.Time
	// The estimates given by Expect: the runs' estimated durations not yet
	// done, and of the executed runs done, the sum of their estimates and
	// of the time they took; workers is how many run at once.
	estimated        bool
	estLeft, estDone time.Duration
	took             time.Duration
	workers          int
	// deadline is when the runs stop (Until; zero: none).
	deadline time.Time
}

// New returns a bar for total runs written to w, labelled label. Finish
// must be called.
func New(w io.Writer, label string, total int) *Bar {
	b := &Bar{label: label, total: total, start: time.Now()}
	b.line = NewLine(w, b.render)
	return b
}

// Cached counts n runs found in the cache (done without running).
func (b *Bar) Cached(n int) {
	b.line.Update(func() { b.cached += n; b.done += n })
}

// Expect gives the estimated duration of all the runs the bar will count
// as Done, and how many of them run at once. The time left then follows the
// estimates of the runs not yet done, scaled by how long the runs done took
// against theirs, instead of the mean time per run so far: one that stays
// put between two long runs, and that a quick first run (one resumed from
// a checkpoint, a cheap run of a cheapest-first campaign) does not skew.
func (b *Bar) Expect(total time.Duration, workers int) {
	b.line.Update(func() { b.estimated, b.estLeft, b.workers = true, total, max(workers, 1) })
}

// Until says that the runs stop at deadline, a budget's end: where the
// estimated time left runs past it, or before there is one, the bar shows
// the time left until then instead ("2h0m0s left of the budget"), not the
// days the runs missing would take.
func (b *Bar) Until(deadline time.Time) {
	b.line.Update(func() { b.deadline = deadline })
}

// Done counts one executed run, failed or not: its estimated duration est
// (as counted in Expect; 0 when Expect was not called) and how long it took.
func (b *Bar) Done(failed bool, est, took time.Duration) {
	b.line.Update(func() {
		b.done++
		if failed {
			b.failed++
		}
		b.estLeft -= est
		b.estDone += est
		b.took += took
	})
}

// Finish draws the final state and ends the line.
func (b *Bar) Finish() { b.line.Finish(nil) }

// String renders the bar's current state.
func (b *Bar) String() string {
	b.line.mu.Lock()
	defer b.line.mu.Unlock()
	return b.render()
}

// render is the bar's line; the Line's lock is held.
func (b *Bar) render() string {
	filled := width
	if b.total > 0 {
		filled = width * b.done / b.total
	}
	now := b.line.now()
	elapsed := now.Sub(b.start)
	s := fmt.Sprintf("%s [%s%s] %d/%d runs (%d cached, %d failed) %s", b.label,
		strings.Repeat("#", filled), strings.Repeat("-", width-filled), b.done, b.total, b.cached, b.failed, elapsed.Round(time.Second))
	left, ok := b.left(elapsed)
	if until := b.deadline.Sub(now); !b.deadline.IsZero() && b.done < b.total && (!ok || until < left) {
		return s + fmt.Sprintf(", %s left of the budget", max(until, 0).Round(time.Second))
	}
	if ok {
		s += fmt.Sprintf(", about %s left", left.Round(time.Second))
	}
	return s
}

// left estimates the time until the last run is done; ok is false before
// any executed run is done (nothing to judge the pace by) and after the
// last.
func (b *Bar) left(elapsed time.Duration) (left time.Duration, ok bool) {
	ran := b.done - b.cached
	if ran == 0 || b.done >= b.total {
		return 0, false
	}
	if b.estimated && b.estDone > 0 {
		pace := float64(b.took) / float64(b.estDone)
		return time.Duration(pace * float64(max(b.estLeft, 0)) / float64(b.workers)), true
	}
	return time.Duration(float64(elapsed) / float64(ran) * float64(b.total-b.done)), true
}
