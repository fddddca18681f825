package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// width is the number of cells of the bar.
const width = 30

// logEvery is the least time between two lines when not on a terminal.
const logEvery = 5 * time.Second

// Bar counts finished runs. It is safe for concurrent use.
type Bar struct {
	mu                   sync.Mutex
	w                    io.Writer
	label                string
	total                int
	done, cached, failed int
	start, lastLine      time.Time
	printed              int // runs done at the last printed line
	tty                  bool
	now                  func() time.Time
}

// New returns a bar for total runs written to w, labelled label.
func New(w io.Writer, label string, total int) *Bar {
	return &Bar{w: w, label: label, total: total, tty: isTerminal(w), now: time.Now, start: time.Now()}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Cached counts n runs found in the cache (done without running).
func (b *Bar) Cached(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cached += n
	b.done += n
	b.draw(false)
}

// Done counts one executed run, failed or not.
func (b *Bar) Done(failed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done++
	if failed {
		b.failed++
	}
	b.draw(false)
}

// Finish draws the final state and ends the line.
func (b *Bar) Finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.draw(true)
	if b.tty {
		fmt.Fprintln(b.w)
	}
}

// String renders the bar's current state.
func (b *Bar) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.render()
}

func (b *Bar) render() string {
	filled := width
	if b.total > 0 {
		filled = width * b.done / b.total
	}
	elapsed := b.now().Sub(b.start).Round(time.Second)
	s := fmt.Sprintf("%s [%s%s] %d/%d runs (%d cached, %d failed) %s", b.label,
		strings.Repeat("#", filled), strings.Repeat("-", width-filled), b.done, b.total, b.cached, b.failed, elapsed)
	if ran := b.done - b.cached; ran > 0 && b.done < b.total {
		left := time.Duration(float64(b.now().Sub(b.start)) / float64(ran) * float64(b.total-b.done))
		s += fmt.Sprintf(", about %s left", left.Round(time.Second))
	}
	return s
}

func (b *Bar) draw(final bool) {
	if b.tty {
		fmt.Fprintf(b.w, "\r\033[K%s", b.render())
		return
	}
	now := b.now()
	due := now.Sub(b.lastLine) >= logEvery || b.done == b.total || final
	if !due || b.printed == b.done && !b.lastLine.IsZero() {
		return
	}
	fmt.Fprintln(b.w, b.render())
	b.lastLine, b.printed = now, b.done
}
