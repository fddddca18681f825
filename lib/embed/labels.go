package embed

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// WriteLabels writes one class label per item to path: as CSV (one integer
// per line) or, when path ends in .npy, as an int64 NumPy array of shape
// (n,). Like WriteEmbedding it writes a temporary file beside path and
// renames it into place.
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
	if err := writeNPYHeader(w, fmt.Sprintf("{'descr': '<i8', 'fortran_order': False, 'shape': (%d,), }", len(labels))); err != nil {
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

var (
	labelsDescr = regexp.MustCompile(`'descr':\s*'([<|=]?)(i8|i4|f8)'`)
	labelsShape = regexp.MustCompile(`'shape':\s*\(\s*(\d+)\s*,\s*(1\s*,?\s*)?\)`)
)

func readLabelsNPY(r io.Reader) ([]int, error) {
	header, err := readNPYHeaderText(r)
	if err != nil {
		return nil, err
	}
	descr, shape := labelsDescr.FindSubmatch(header), labelsShape.FindSubmatch(header)
	if order := npyOrder.FindSubmatch(header); descr == nil || shape == nil || order != nil && string(order[1]) == "True" {
		return nil, fmt.Errorf("want labels as a little-endian int64, int32 or float64 array of shape (n,) or (n, 1) in C order, header is %q", bytes.TrimSpace(header))
	}
	n, err := strconv.Atoi(string(shape[1]))
	if err != nil || n < 1 {
		return nil, fmt.Errorf("no labels in an array of shape (%s,)", shape[1])
	}
	size := 8
	if string(descr[2]) == "i4" {
		size = 4
	}
	raw := make([]byte, n*size)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, fmt.Errorf("data of %d labels: %w", n, err)
	}
	labels := make([]int, n)
	for i := range labels {
		switch string(descr[2]) {
		case "i4":
			labels[i] = int(int32(binary.LittleEndian.Uint32(raw[4*i:])))
		case "i8":
			labels[i] = int(int64(binary.LittleEndian.Uint64(raw[8*i:])))
		default:
			v := math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
			if v != math.Trunc(v) || math.Abs(v) > 1<<31 {
				return nil, fmt.Errorf("element %d: label %v is not a whole number", i, v)
			}
			labels[i] = int(v)
		}
	}
	return labels, nil
}
