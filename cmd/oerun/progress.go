package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progressBar draws a one-line progress bar, redrawn in place with a
// carriage return, for long loops such as training epochs:
//
//	soe [#########.........]  450/1000  train err 0.0312  1.2s, ETA ≤ 1.5s
//
// It redraws at most every redrawEvery so that fast loops do not flood the
// terminal. It is not safe for concurrent use.
type progressBar struct {
	w     io.Writer
	label string
	total int
	// bound marks the total as an upper bound (a run that may stop early),
	// shown as "ETA ≤".
	bound     bool
	start     time.Time
	lastDraw  time.Time
	lastWidth int
}

const (
	redrawEvery = 100 * time.Millisecond
	barCells    = 24
)

// newProgressBar starts a bar for total steps; bound says whether the loop
// may finish before total.
func newProgressBar(w io.Writer, label string, total int, bound bool) *progressBar {
	return &progressBar{w: w, label: label, total: max(total, 1), bound: bound, start: time.Now()}
}

// Update reports that done steps have finished, with a short status text.
func (p *progressBar) Update(done int, status string) {
	now := time.Now()
	if done < p.total && now.Sub(p.lastDraw) < redrawEvery {
		return
	}
	p.lastDraw = now
	p.draw(done, status, p.timing(done, now.Sub(p.start)))
}

// Finish draws the final state with the total elapsed time and ends the
// line; done may fall short of the total when the loop stopped early.
func (p *progressBar) Finish(done int, status string) {
	p.draw(done, status, roundDuration(time.Since(p.start)).String())
	fmt.Fprintln(p.w)
}

func (p *progressBar) draw(done int, status, timing string) {
	done = min(max(done, 0), p.total)
	filled := done * barCells / p.total
	line := fmt.Sprintf("%s [%s%s] %*d/%d  %s  %s", p.label,
		strings.Repeat("#", filled), strings.Repeat(".", barCells-filled),
		len(fmt.Sprint(p.total)), done, p.total, status, timing)
	// Pad with spaces to wipe a longer previous line.
	pad := max(p.lastWidth-len(line), 0)
	p.lastWidth = len(line)
	fmt.Fprintf(p.w, "\r%s%s", line, strings.Repeat(" ", pad))
}

// timing returns "elapsed, ETA …": the remaining steps at the mean pace so far.
func (p *progressBar) timing(done int, elapsed time.Duration) string {
	s := roundDuration(elapsed).String()
	if done == 0 || done >= p.total {
		return s
	}
	eta := time.Duration(float64(elapsed) / float64(done) * float64(p.total-done))
	rel := "ETA"
	if p.bound {
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
