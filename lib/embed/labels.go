package embed

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/oe-lab/oe/lib/internal/npy"
)

// WriteLabels writes one class label per item to path: as CSV (one integer
// per line) or, when path ends in .npy, as an int64 NumPy array of shape
// (n,). Like WriteEmbedding it writes the file atomically.
func WriteLabels(path string, labels []int) error {
	return writeFile(path, func(w io.Writer) error {
		if isNPY(path) {
			return writeLabelsNPY(w, labels)
		}
		buf := make([]byte, 0, 24)
		for _, l := range labels {
			buf = strconv.AppendInt(buf[:0], int64(l), 10)
			buf = append(buf, '\n')
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
		return nil
	})
}

// ReadLabels reads class labels written by WriteLabels: a CSV or text file
// of one integer per line, or a .npy array of shape (n,) or (n, 1) of
// little-endian int32, int64 or whole float64 values. Errors name the line
// or element at fault.
func ReadLabels(path string) ([]int, error) {
	return readFile(path, readLabelsNPY, readLabelsCSV)
}

func readLabelsCSV(r io.Reader) ([]int, error) {
	sc := bufio.NewScanner(r)
	var labels []int
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		v, err := strconv.Atoi(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: label %q is not an integer", line, text)
		}
		labels = append(labels, v)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(labels) == 0 {
		return nil, errors.New("no labels")
	}
	return labels, nil
}

func writeLabelsNPY(w io.Writer, labels []int) error {
	if err := npy.WriteHeader(w, "<i8", len(labels)); err != nil {
		return err
	}
	var b [8]byte
	for _, l := range labels {
		binary.LittleEndian.PutUint64(b[:], uint64(int64(l)))
		if _, err := w.Write(b[:]); err != nil {
			return err
		}
	}
	return nil
}

// readLabelsNPY reads an (n,) or (n, 1) C-order array of little-endian
// int64, int32 or float64 from r, a file of size bytes (−1: unknown),
// checking the header's shape against the size before allocating.
func readLabelsNPY(r io.Reader, size int64) ([]int, error) {
	h, err := npy.ReadHeader(r)
	if err != nil {
		return nil, fmt.Errorf(".npy header: %w", err)
	}
	width := map[string]int{"<i8": 8, "<i4": 4, "<f8": 8}[h.Descr]
	column := len(h.Shape) == 1 || len(h.Shape) == 2 && h.Shape[1] == 1
	if width == 0 || !column || h.Fortran {
		return nil, fmt.Errorf("want labels as a little-endian int64, int32 or float64 array of shape (n,) or (n, 1) in C order, not dtype %q, shape %s, fortran_order %v",
			h.Descr, npy.ShapeString(h.Shape), h.Fortran)
	}
	if h.Shape[0] < 1 {
		return nil, fmt.Errorf("no labels in an array of shape %s", npy.ShapeString(h.Shape))
	}
	if _, err := h.DataBytes(width, size); err != nil {
		return nil, fmt.Errorf(".npy %w", err)
	}
	n := int(h.Shape[0])
	capacity := n
	if size < 0 {
		capacity = min(n, 1<<16)
	}
	labels := make([]int, 0, capacity)
	var b [8]byte
	for i := range n {
		if err := npy.ReadFull(r, b[:width]); err != nil {
			return nil, fmt.Errorf("data of %d labels, element %d: %w", n, i, err)
		}
		switch h.Descr {
		case "<i4":
			labels = append(labels, int(int32(binary.LittleEndian.Uint32(b[:]))))
		case "<i8":
			labels = append(labels, int(int64(binary.LittleEndian.Uint64(b[:]))))
		default:
			v := math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
			if v != math.Trunc(v) || math.Abs(v) > 1<<31 {
				return nil, fmt.Errorf("element %d: label %v is not a whole number", i, v)
			}
			labels = append(labels, int(v))
		}
	}
	return labels, nil
}
