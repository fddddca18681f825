package triplets

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
)

// maxCSVLine bounds the length of one CSV line; a triplet line is a few
// dozen bytes, so anything longer is not a triplet file.
const maxCSVLine = 1 << 16

// ReadCSV reads triplets from r, one "i,j,k" per line; name is used in
// errors. Blank lines and lines starting with '#' are skipped; a comment
// "# n=N" before the first triplet declares the number of items. The first
// non-comment line may be the header "i,j,k". n is the number of items:
// indices must lie in [0, n); with n = 0 the declared count is used, or
// else the largest index + 1. A declared count that differs from a non-zero
// n is an error, since the file then describes other items than the caller
// has. Items may be names rather than numbers, and the file a responses
// file: ReadCSV is ReadCSVWith with default options, without the form.
func ReadCSV(r io.Reader, name string, n int) (*Set, error) {
	s, _, err := ReadCSVWith(r, name, ReadOptions{N: n})
	return s, err
}

// parseDeclaredN recognises the comment "# n=N". ok is false for any other
// comment; err is set when the comment has that form but N is not a count.
func parseDeclaredN(comment []byte) (n int, ok bool, err error) {
	body := bytes.TrimSpace(comment[1:])
	key, val, found := bytes.Cut(body, []byte{'='})
	if !found || string(bytes.TrimSpace(key)) != "n" {
		return 0, false, nil
	}
	v, perr := strconv.ParseInt(string(bytes.TrimSpace(val)), 10, 64)
	if perr != nil || v < 0 || v > math.MaxInt32 {
		return 0, true, fmt.Errorf("bad item count in %q", clip(comment))
	}
	return int(v), true, nil
}

// parseIndex parses a decimal item index in [0, limit), or [0, MaxItems)
// when limit is 0.
func parseIndex(f []byte, limit int64) (int32, error) {
	neg := false
	digits := f
	if len(digits) > 0 && (digits[0] == '+' || digits[0] == '-') {
		neg = digits[0] == '-'
		digits = digits[1:]
	}
	if len(digits) == 0 {
		return 0, fmt.Errorf("%q is not an integer", clip(f))
	}
	var v int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not an integer", clip(f))
		}
		if v <= math.MaxInt32 {
			v = 10*v + int64(c-'0')
		}
	}
	switch {
	case neg && v != 0:
		return 0, fmt.Errorf("index %s is negative", clip(f))
	case v >= MaxItems:
		return 0, fmt.Errorf("index %s is too large: items are numbered 0 to %d at most", clip(f), MaxItems-1)
	case limit > 0 && v >= limit:
		return 0, fmt.Errorf("index %d out of range [0, %d)", v, limit)
	}
	return int32(v), nil
}

// clip shortens b for an error message.
func clip(b []byte) string {
	const max = 40
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// WriteCSV writes s as CSV: a "# n=N" line (numbered items only), an
// "i,j,k" header and one triplet per line, its items named (quoted where
// needed) when s has names. ReadCSV reads it back as s, with the same N; a
// named set's N is the number of names its triplets use.
func WriteCSV(w io.Writer, s *Set) error {
	if err := s.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if s.Names == nil {
		fmt.Fprintf(bw, "# n=%d\n", s.N)
	}
	bw.WriteString("i,j,k\n")
	buf := make([]byte, 0, 40)
	for t := 0; t < s.Len(); t++ {
		i, j, k := s.At(t)
		buf = appendItem(buf[:0], s, i)
		buf = append(buf, ',')
		buf = appendItem(buf, s, j)
		buf = append(buf, ',')
		buf = appendItem(buf, s, k)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
