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

// Done counts one executed run, failed or not.
func (b *Bar) Done(failed bool) {
	b.line.Update(func() {
		b.done++
		if failed {
			b.failed++
		}
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
	elapsed := b.line.now().Sub(b.start)
	s := fmt.Sprintf("%s [%s%s] %d/%d runs (%d cached, %d failed) %s", b.label,
		strings.Repeat("#", filled), strings.Repeat("-", width-filled), b.done, b.total, b.cached, b.failed, elapsed.Round(time.Second))
	if ran := b.done - b.cached; ran > 0 && b.done < b.total {
		left := time.Duration(float64(elapsed) / float64(ran) * float64(b.total-b.done))
		s += fmt.Sprintf(", about %s left", left.Round(time.Second))
	}
	return s
}
