package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Timing of a Line.
const (
	// HeartbeatEvery is the least time between two lines when not on a
	// terminal, and the longest time without one while work goes on.
	HeartbeatEvery = 30 * time.Second
	// redrawEvery is the least time between two redraws on a terminal, and
	// tickEvery how often a terminal line is redrawn while nothing changes.
	redrawEvery = 100 * time.Millisecond
	tickEvery   = time.Second
)

// Line is a status line rendered by a function of the caller's state (see
// the package comment for when it draws). The state is changed only inside
// Update and Finish, which hold the lock that render runs under. Finish must
// be called: it stops the goroutine that keeps the line alive.
type Line struct {
	mu     sync.Mutex
	w      io.Writer
	render func() string
	tty    bool
	now    func() time.Time
	// last is when the line was last written (zero: never); width is the
	// length of the last terminal line, which a shorter one must wipe.
	last     time.Time
	width    int
	finished bool
	stop     chan struct{}
}

// NewLine starts a status line on w rendered by render, which Line calls
// with its lock held. It checks whether w is a terminal.
func NewLine(w io.Writer, render func() string) *Line {
	l := newLine(w, render, isTerminal(w), time.Now)
	go l.keepAlive()
	return l
}

// newLine is NewLine without the goroutine, for tests that drive the clock.
func newLine(w io.Writer, render func() string, tty bool, now func() time.Time) *Line {
	return &Line{w: w, render: render, tty: tty, now: now, stop: make(chan struct{})}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Update applies change (which may be nil) to the caller's state under the
// line's lock, then draws if it is due.
func (l *Line) Update(change func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if change != nil {
		change()
	}
	l.draw(false)
}

// Finish applies change (which may be nil), draws the final state, ends
// the line and stops keeping it alive. Later calls do nothing.
func (l *Line) Finish(change func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.finished {
		return
	}
	l.finished = true
	close(l.stop)
	if change != nil {
		change()
	}
	l.draw(true)
	if l.tty {
		fmt.Fprintln(l.w)
	}
}

// keepAlive draws while nothing changes: the heartbeat.
func (l *Line) keepAlive() {
	t := time.NewTicker(tickEvery)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			l.tick()
		}
	}
}

func (l *Line) tick() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.finished {
		l.draw(false)
	}
}

// draw writes the line if final or due; l.mu is held.
func (l *Line) draw(final bool) {
	now := l.now()
	every := HeartbeatEvery
	if l.tty {
		every = redrawEvery
	}
	if !final && !l.last.IsZero() && now.Sub(l.last) < every {
		return
	}
	l.last = now
	s := l.render()
	if !l.tty {
		fmt.Fprintln(l.w, s)
		return
	}
	// Pad with spaces to wipe a longer previous line.
	width := utf8.RuneCountInString(s)
	pad := max(l.width-width, 0)
	l.width = width
	fmt.Fprintf(l.w, "\r%s%s", s, strings.Repeat(" ", pad))
}
