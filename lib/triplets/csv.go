package triplets

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// maxCSVLine bounds the length of one CSV line; a triplet line is a few
// dozen bytes, so anything longer is not a triplet file.
const maxCSVLine = 1 << 16

// ReadCSV reads triplets from r, one "i,j,k" per line; name is used in
// errors. Blank lines and lines starting with '#' are skipped; a comment
// "# n=N" before the first triplet declares the number of items. The first
// non-comment line may be a header whose fields all start with a letter
// (e.g. "i,j,k"). n is the number of items: indices must lie in [0, n); with
// n = 0 the declared count is used, or else the largest index + 1. A declared
// count that differs from a non-zero n is an error, since the file then
// describes other items than the caller has.
func ReadCSV(r io.Reader, name string, n int) (*Set, error) {
	if err := checkN(name, n); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxCSVLine)
	var idx []int32
	limit := int64(n) // 0: unknown until the end
	line := 0
	started := false // seen the first non-comment line
	// top is the largest index so far, on line topLine.
	top, topLine := int32(-1), 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if text[0] == '#' {
			if started {
				continue
			}
			declared, ok, err := parseDeclaredN(text)
			if err != nil {
				return nil, fmt.Errorf("triplets: %s:%d: %v", name, line, err)
			}
			if !ok {
				continue
			}
			if n > 0 && declared != n {
				return nil, fmt.Errorf("triplets: %s:%d: file declares n=%d items, caller expects n=%d", name, line, declared, n)
			}
			if err := checkN(name, declared); err != nil || declared == 0 {
				return nil, fmt.Errorf("triplets: %s:%d: declared item count n=%d out of range [3, %d]", name, line, declared, MaxItems)
			}
			limit = int64(declared)
			n = declared
			continue
		}
		fields := bytes.Split(text, []byte{','})
		if len(fields) != 3 {
			return nil, fmt.Errorf("triplets: %s:%d: want 3 comma-separated fields i,j,k, got %d in %q", name, line, len(fields), clip(text))
		}
		if !started {
			started = true
			if isHeader(fields) {
				continue
			}
		}
		var row [3]int32
		for c, f := range fields {
			v, err := parseIndex(bytes.TrimSpace(f), limit)
			if err != nil {
				return nil, fmt.Errorf("triplets: %s:%d: field %d: %v", name, line, c+1, err)
			}
			row[c] = v
		}
		if row[0] == row[1] || row[0] == row[2] || row[1] == row[2] {
			return nil, fmt.Errorf("triplets: %s:%d: indices (%d, %d, %d) are not distinct", name, line, row[0], row[1], row[2])
		}
		if m := max(row[0], row[1], row[2]); m > top {
			top, topLine = m, line
		}
		idx = append(idx, row[0], row[1], row[2])
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, fmt.Errorf("triplets: %s:%d: line longer than %d bytes", name, line+1, maxCSVLine)
		}
		return nil, fmt.Errorf("triplets: %s: %w", name, err)
	}
	return finish(name, idx, n, func(int) string { return fmt.Sprintf(":%d", topLine) })
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

// isHeader reports whether every field starts with a letter or '_', as in
// "i,j,k" or "anchor,near,far".
func isHeader(fields [][]byte) bool {
	for _, f := range fields {
		f = bytes.TrimSpace(f)
		r, _ := utf8.DecodeRune(f)
		if len(f) == 0 || !(unicode.IsLetter(r) || r == '_') {
			return false
		}
	}
	return true
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

// WriteCSV writes s as CSV: a "# n=N" line, an "i,j,k" header and one
// triplet per line. ReadCSV reads it back with the same N.
func WriteCSV(w io.Writer, s *Set) error {
	if err := s.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "# n=%d\ni,j,k\n", s.N)
	buf := make([]byte, 0, 40)
	for t := 0; t < s.Len(); t++ {
		i, j, k := s.At(t)
		buf = strconv.AppendInt(buf[:0], int64(i), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(j), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(k), 10)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
