package datasets

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// idxArray is an IDX array of unsigned bytes (the MNIST file format: a magic
// number 0x00 0x00 0x08 ndim, ndim big-endian uint32 sizes, then the data).
type idxArray struct {
	dims []int
	data []byte
}

// maxIDXBytes bounds the size an IDX header may claim, so a corrupt header
// cannot make the reader allocate without limit.
const maxIDXBytes int64 = 1 << 32

// readIDX reads an unsigned-byte IDX file, gzip-compressed or plain.
func readIDX(path string) (*idxArray, error) {
	rc, err := openData(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	r := bufio.NewReader(rc)
	var magic [4]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil {
		return nil, fmt.Errorf("datasets: %s: IDX header: %w", path, err)
	}
	if magic[0] != 0 || magic[1] != 0 {
		return nil, fmt.Errorf("datasets: %s: not an IDX file (magic % x)", path, magic)
	}
	if magic[2] != 0x08 {
		return nil, fmt.Errorf("datasets: %s: IDX element type 0x%02x, want 0x08 (unsigned byte)", path, magic[2])
	}
	ndim := int(magic[3])
	if ndim == 0 {
		return nil, fmt.Errorf("datasets: %s: IDX array with no dimensions", path)
	}
	a := &idxArray{dims: make([]int, ndim)}
	total := int64(1)
	for i := range a.dims {
		var s uint32
		if err := binary.Read(r, binary.BigEndian, &s); err != nil {
			return nil, fmt.Errorf("datasets: %s: IDX size %d of %d: %w", path, i+1, ndim, err)
		}
		a.dims[i] = int(s)
		total *= int64(s)
		if total > maxIDXBytes {
			return nil, fmt.Errorf("datasets: %s: IDX sizes %v exceed %d bytes", path, a.dims[:i+1], maxIDXBytes)
		}
	}
	a.data = make([]byte, total)
	if n, err := io.ReadFull(r, a.data); err != nil {
		return nil, fmt.Errorf("datasets: %s: IDX data ends after %d of %d bytes: %w", path, n, total, err)
	}
	if _, err := r.ReadByte(); err != io.EOF {
		if err == nil {
			return nil, fmt.Errorf("datasets: %s: bytes after the %d announced by the IDX header %v", path, total, a.dims)
		}
		return nil, fmt.Errorf("datasets: %s: %w", path, err)
	}
	return a, nil
}

// libsvmData is a LIBSVM-format file read densely: "label index:value ..."
// per line, indices 1-based and increasing, absent entries zero.
type libsvmData struct {
	vals   []float32 // rows × dim, row-major
	labels []int
	rows   int
	lines  []int // the file line of each row, for error messages
}

// readLibSVM reads a LIBSVM file with integer labels and at most dim
// features; values are parsed as float32, the precision torchvision uses.
func readLibSVM(path string, dim int) (*libsvmData, error) {
	rc, err := openData(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	sc := bufio.NewScanner(rc)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	d := &libsvmData{}
	var fields [][]byte
	line := 0
	for sc.Scan() {
		line++
		fields = splitFields(sc.Bytes(), 0, fields[:0])
		if len(fields) == 0 {
			continue
		}
		label, err := parseInt(fields[0])
		if err != nil {
			return nil, fmt.Errorf("datasets: %s:%d: label: %w", path, line, err)
		}
		row := make([]float32, dim)
		last := 0
		for _, f := range fields[1:] {
			colon := bytes.IndexByte(f, ':')
			if colon < 0 {
				return nil, fmt.Errorf("datasets: %s:%d: %q is not index:value", path, line, f)
			}
			idx, err := strconv.Atoi(string(f[:colon]))
			if err != nil || idx < 1 || idx > dim {
				return nil, fmt.Errorf("datasets: %s:%d: index %q outside 1..%d", path, line, f[:colon], dim)
			}
			if idx <= last {
				return nil, fmt.Errorf("datasets: %s:%d: index %d after %d (indices must increase)", path, line, idx, last)
			}
			last = idx
			v, err := strconv.ParseFloat(string(f[colon+1:]), 32)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("datasets: %s:%d: value %q of index %d is not a finite number", path, line, f[colon+1:], idx)
			}
			row[idx-1] = float32(v)
		}
		d.vals = append(d.vals, row...)
		d.labels = append(d.labels, label)
		d.rows++
		d.lines = append(d.lines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("datasets: %s: after line %d: %w", path, line, err)
	}
	return d, nil
}

// parseInt parses an integer written as an integer or an integral decimal
// ("3" or "3.0").
func parseInt(b []byte) (int, error) {
	v, err := parseNumber(b)
	if err != nil {
		return 0, err
	}
	return integral(v)
}

var errNotIntegral = errors.New("not an integer")

func integral(v float64) (int, error) {
	if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
		return 0, fmt.Errorf("%w: %v", errNotIntegral, v)
	}
	return int(v), nil
}
