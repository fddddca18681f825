package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/oe-lab/oe/runner/progress"
)

// epochBar shows a fit's epochs on a progress.Line:
//
//	soe [#########.........]  450/1000  train err 0.0312  1.2s, ETA ≤ 1.5s
//
// redrawn in place on a terminal; in a log, a line at most every
// progress.HeartbeatEvery, also while one long epoch runs.
type epochBar struct {
	line  *progress.Line
	label string
	total int
	// bound marks the total as an upper bound (a run that may stop early),
	// shown as "ETA ≤".
	bound bool
	start time.Time
	now   func() time.Time
	// done and status are the state drawn; finished drops the ETA.
	done     int
	status   string
	finished bool
}

const barCells = 24

// newEpochBar starts a bar for total epochs on w; bound says whether the
// fit may finish before total. With total 0 (a method that reports no
// epochs while it runs) it shows the elapsed time only.
func newEpochBar(w io.Writer, label string, total int, bound bool) *epochBar {
	b := &epochBar{label: label, total: total, bound: bound, start: time.Now(), now: time.Now}
	b.line = progress.NewLine(w, b.render)
	return b
}

// Update reports that done epochs have finished, with a short status text.
func (b *epochBar) Update(done int, status string) {
	b.line.Update(func() { b.done, b.status = done, status })
}

// Finish draws the final state with the total elapsed time and ends the
// line; done may fall short of the total when the fit stopped early.
func (b *epochBar) Finish(done int, status string) {
	b.line.Finish(func() { b.done, b.status, b.finished = done, status, true })
}

func (b *epochBar) render() string {
	elapsed := b.now().Sub(b.start)
	if b.total <= 0 {
		return fmt.Sprintf("%s  %s  %s", b.label, b.status, roundDuration(elapsed))
	}
	done := min(max(b.done, 0), b.total)
	filled := done * barCells / b.total
	return fmt.Sprintf("%s [%s%s] %*d/%d  %s  %s", b.label,
		strings.Repeat("#", filled), strings.Repeat(".", barCells-filled),
		len(fmt.Sprint(b.total)), done, b.total, b.status, b.timing(done, elapsed))
}

// timing returns "elapsed, ETA …": the remaining epochs at the mean pace so
// far.
func (b *epochBar) timing(done int, elapsed time.Duration) string {
	s := roundDuration(elapsed).String()
	if b.finished || done == 0 || done >= b.total {
		return s
	}
	eta := time.Duration(float64(elapsed) / float64(done) * float64(b.total-done))
	rel := "ETA"
	if b.bound {
		rel = "ETA ≤"
	}
	return fmt.Sprintf("%s, %s %s", s, rel, roundDuration(eta))
}

func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second)
	case d >= time.Second:
		return d.Round(100 * time.Millisecond)
	default:
		return d.Round(time.Millisecond)
	}
}
