package triplets

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// CheckNames reports whether names can name the items of a Set: every name
// valid (see CheckName) and the names in strictly increasing byte order,
// the order in which a file's names are numbered. The error names the first
// offending name by its position.
func CheckNames(names []string) error {
	for i, nm := range names {
		if err := CheckName(nm); err != nil {
			return fmt.Errorf("triplets: name %d: %w", i, err)
		}
		if i > 0 && names[i-1] >= nm {
			return fmt.Errorf("triplets: names %d and %d (%q, %q) are not in strictly increasing byte order", i-1, i, names[i-1], nm)
		}
	}
	return nil
}

// CheckName reports why name cannot name an item, or nil. A name is
// non-empty valid UTF-8 without line breaks, and is not an integer
// (integers number items: a file's items are all numbers or all names).
func CheckName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty name")
	case !utf8.ValidString(name):
		return fmt.Errorf("name %q is not valid UTF-8", name)
	case strings.ContainsAny(name, "\r\n"):
		return fmt.Errorf("name %q contains a line break", name)
	case isInteger([]byte(name)):
		return fmt.Errorf("name %q is an integer, which numbers an item rather than naming it", name)
	}
	return nil
}

// isInteger reports whether f is a decimal integer token, [+-]?[0-9]+: the
// tokens that number items. Every other non-empty token is a name.
func isInteger(f []byte) bool {
	if len(f) > 0 && (f[0] == '+' || f[0] == '-') {
		f = f[1:]
	}
	if len(f) == 0 {
		return false
	}
	for _, c := range f {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ItemName returns the name of item i: Names[i] for a named set, else the
// decimal number i.
func (s *Set) ItemName(i int32) string {
	if s.Names != nil {
		return s.Names[i]
	}
	return strconv.Itoa(int(i))
}

// ReadNames reads a list of item names, one a line (a trailing "\r" is
// dropped), as WriteNames writes it and as the names sidecar of an
// embedding holds them; name is used in errors. Every line is a name
// (CheckName), and no name appears twice; the order is kept.
func ReadNames(r io.Reader, name string) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxCSVLine)
	var names []string
	seen := map[string]int{}
	line := 0
	for sc.Scan() {
		line++
		nm := string(bytes.TrimSuffix(sc.Bytes(), []byte{'\r'}))
		if err := CheckName(nm); err != nil {
			return nil, fmt.Errorf("triplets: %s:%d: %w", name, line, err)
		}
		if first, dup := seen[nm]; dup {
			return nil, fmt.Errorf("triplets: %s:%d: name %q already on line %d", name, line, nm, first)
		}
		seen[nm] = line
		names = append(names, nm)
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, fmt.Errorf("triplets: %s:%d: line longer than %d bytes", name, line+1, maxCSVLine)
		}
		return nil, fmt.Errorf("triplets: %s: %w", name, err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("triplets: %s: no names", name)
	}
	return names, nil
}

// WriteNames writes names one a line, as ReadNames reads them. It rejects a
// name ReadNames would not read back (CheckName).
func WriteNames(w io.Writer, names []string) error {
	for i, nm := range names {
		if err := CheckName(nm); err != nil {
			return fmt.Errorf("triplets: name %d: %w", i, err)
		}
	}
	bw := bufio.NewWriter(w)
	for _, nm := range names {
		bw.WriteString(nm)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Renumber returns the triplets of s over the items that names lists (the
// names of an embedding's rows, say, in any order): each item of s becomes
// the position of its name in names, and the result has len(names) items
// and no names of its own. s must have names; one that names does not hold
// is an error naming it.
func (s *Set) Renumber(names []string) (*Set, error) {
	if s.Names == nil {
		return nil, fmt.Errorf("triplets: the items are numbered, not named")
	}
	at := make(map[string]int32, len(names))
	for i, nm := range names {
		at[nm] = int32(i)
	}
	to := make([]int32, s.N)
	for i, nm := range s.Names {
		p, ok := at[nm]
		if !ok {
			return nil, fmt.Errorf("triplets: item %q is not among the %d names", nm, len(names))
		}
		to[i] = p
	}
	out := &Set{N: len(names), Idx: make([]int32, len(s.Idx))}
	for p, v := range s.Idx {
		out.Idx[p] = to[v]
	}
	return out, nil
}
