package datasets

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
)

// openData opens path and undoes gzip or bzip2 compression, recognised by the
// magic bytes rather than the name, so every loader also accepts a plain copy
// of its file.
func openData(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 1<<16)
	magic, _ := br.Peek(3) // a short file is simply plain text
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		z, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("datasets: %s: %w", path, err)
		}
		return readCloser{z, f}, nil
	case bytes.Equal(magic, []byte("BZh")):
		return readCloser{bzip2.NewReader(br), f}, nil
	}
	return readCloser{br, f}, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// table is a numeric text table read row by row.
type table struct {
	vals  []float64 // row-major
	rows  int
	lines []int // the file line of each row, for error messages
}

// readTable reads a text file of numbers with cols fields per line, separated
// by sep (0: any run of spaces and tabs). Blank lines are skipped; anything
// else malformed is an error naming the file and line.
func readTable(path string, sep byte, cols int) (*table, error) {
	rc, err := openData(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	sc := bufio.NewScanner(rc)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	t := &table{}
	fields := make([][]byte, 0, cols+1)
	line := 0
	for sc.Scan() {
		line++
		fields = splitFields(sc.Bytes(), sep, fields[:0])
		if len(fields) == 0 {
			continue
		}
		if len(fields) != cols {
			return nil, fmt.Errorf("datasets: %s:%d: %d fields, want %d", path, line, len(fields), cols)
		}
		for k, fb := range fields {
			v, err := parseNumber(fb)
			if err != nil {
				return nil, fmt.Errorf("datasets: %s:%d: field %d: %w", path, line, k+1, err)
			}
			t.vals = append(t.vals, v)
		}
		t.rows++
		t.lines = append(t.lines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("datasets: %s: after line %d: %w", path, line, err)
	}
	return t, nil
}

// splitFields appends the fields of line to dst without allocating: split at
// sep with surrounding blanks trimmed, or at runs of blanks when sep is 0.
func splitFields(line []byte, sep byte, dst [][]byte) [][]byte {
	line = bytes.TrimRight(line, "\r")
	if sep == 0 {
		for i := 0; i < len(line); {
			for i < len(line) && isBlank(line[i]) {
				i++
			}
			j := i
			for j < len(line) && !isBlank(line[j]) {
				j++
			}
			if j > i {
				dst = append(dst, line[i:j])
			}
			i = j
		}
		return dst
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return dst
	}
	for {
		i := bytes.IndexByte(line, sep)
		if i < 0 {
			return append(dst, bytes.TrimSpace(line))
		}
		dst = append(dst, bytes.TrimSpace(line[:i]))
		line = line[i+1:]
	}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// parseNumber parses a finite decimal number. Plain integers, the bulk of
// every data file here, take a fast path that neither allocates nor rounds.
func parseNumber(b []byte) (float64, error) {
	if v, ok := parseSmallInt(b); ok {
		return v, nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, fmt.Errorf("not a number: %q", b)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("not a finite number: %q", b)
	}
	return v, nil
}

// parseSmallInt parses an optionally signed integer of at most 15 digits,
// which float64 holds exactly.
func parseSmallInt(b []byte) (float64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return float64(n), true
}
