package interp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"

	yaegi "github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/oe-lab/oe/runner/interp/symbols"
)

// BuildTag is the build constraint experiment scripts carry.
const BuildTag = "experiment"

// Error is a script failure located in the script.
type Error struct {
	// Pos is "file:line:column" in the script ("" when unknown).
	Pos string
	// Msg says what went wrong.
	Msg string
}

func (e *Error) Error() string {
	if e.Pos == "" {
		return e.Msg
	}
	return e.Pos + ": " + e.Msg
}

// Run interprets the script at path and runs its main function. The
// script's output goes to stdout and stderr.
func Run(ctx context.Context, path string, stdout, stderr io.Writer) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !hasBuildTag(src) {
		return &Error{Pos: path + ":1:1", Msg: fmt.Sprintf("script lacks the build constraint //go:build %s (so that go build ./... skips it)", BuildTag)}
	}
	// yaegi prints the script position of every frame a panic unwinds to
	// its stderr; keep them to locate the panic.
	trace := &lockedBuffer{}
	i := yaegi.New(yaegi.Options{Stdout: stdout, Stderr: trace, BuildTags: []string{BuildTag}})
	if err := i.Use(stdlib.Symbols); err != nil {
		return err
	}
	if err := i.Use(symbols.Symbols); err != nil {
		return err
	}
	_, err = i.EvalPathWithContext(ctx, path)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var p yaegi.Panic
	if errors.As(err, &p) {
		return &Error{Pos: panicPos(trace.String(), path), Msg: fmt.Sprintf("panic: %v", p.Value)}
	}
	if pos, msg, ok := splitPos(err.Error()); ok {
		return &Error{Pos: pos, Msg: msg}
	}
	return &Error{Msg: err.Error()}
}

var (
	buildLine = regexp.MustCompile(`(?m)^//go:build\s+(.*)$`)
	posPrefix = regexp.MustCompile(`^(.+?:\d+:\d+): (?s)(.*)$`)
)

func hasBuildTag(src []byte) bool {
	m := buildLine.FindSubmatch(src)
	return m != nil && strings.Contains(string(m[1]), BuildTag)
}

// splitPos splits "file:line:col: message".
func splitPos(s string) (pos, msg string, ok bool) {
	m := posPrefix.FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// panicPos returns the first position in the script's file that yaegi's
// panic trace names: the innermost frame of the script.
func panicPos(trace, path string) string {
	var first string
	for _, line := range strings.Split(trace, "\n") {
		pos, _, ok := splitPos(line)
		if !ok {
			continue
		}
		if first == "" {
			first = pos
		}
		if strings.HasPrefix(pos, path+":") {
			return pos
		}
	}
	return first
}

// lockedBuffer is a bytes.Buffer safe for the interpreter's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
