package embed

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/atomicfile"
	"github.com/oe-lab/oe/lib/internal/npy"
)

// WriteEmbedding writes emb to path, as CSV (one row per item, no header)
// or, when path ends in .npy, as a float64 (n, d) NumPy array. The file is
// written atomically (lib/internal/atomicfile), so a reader never sees half
// a file. A non-finite entry is an error.
func WriteEmbedding(path string, emb *mat.Dense) error {
	if emb == nil {
		return fmt.Errorf("embed: write %s: nil embedding", path)
	}
	if err := checkFinite(path, emb); err != nil {
		return err
	}
	return writeFile(path, func(w io.Writer) error {
		if isNPY(path) {
			return writeNPY(w, emb)
		}
		return writeCSV(w, emb)
	})
}

// writeFile writes path atomically (lib/internal/atomicfile) with write,
// naming path in its errors.
func writeFile(path string, write func(io.Writer) error) error {
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("embed: write %s: %w", path, err)
	}
	return nil
}

// ReadEmbedding reads an embedding written by WriteEmbedding (or any CSV of
// equally long numeric rows, or a little-endian float64 or float32 2-D .npy
// array in C order).
func ReadEmbedding(path string) (*mat.Dense, error) {
	return readFile(path, readNPY, readCSV)
}

// readFile reads path with fromNPY when it ends in .npy, else with fromCSV.
// fromNPY also gets the file's size, to check the header's shape against
// before allocating (−1 when path is not a regular file).
func readFile[T any](path string, fromNPY func(io.Reader, int64) (T, error), fromCSV func(io.Reader) (T, error)) (T, error) {
	var v T
	f, err := os.Open(path)
	if err != nil {
		return v, fmt.Errorf("embed: %w", err)
	}
	defer f.Close()
	if isNPY(path) {
		size := int64(-1)
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
		v, err = fromNPY(bufio.NewReader(f), size)
	} else {
		v, err = fromCSV(f)
	}
	if err != nil {
		return v, fmt.Errorf("embed: read %s: %w", path, err)
	}
	return v, nil
}

func isNPY(path string) bool { return strings.EqualFold(filepath.Ext(path), ".npy") }

func writeCSV(w io.Writer, emb *mat.Dense) error {
	n, _ := emb.Dims()
	buf := make([]byte, 0, 1024)
	for i := 0; i < n; i++ {
		buf = buf[:0]
		for c, v := range emb.RawRowView(i) {
			if c > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

func readCSV(r io.Reader) (*mat.Dense, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	var data []float64
	d := -1
	rows := 0
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		fields := strings.Split(text, ",")
		if d < 0 {
			d = len(fields)
		} else if len(fields) != d {
			return nil, fmt.Errorf("line %d: %d columns, want %d", line, len(fields), d)
		}
		for _, s := range fields {
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			data = append(data, v)
		}
		rows++
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if rows == 0 {
		return nil, errors.New("no rows")
	}
	return mat.NewDense(rows, d, data), nil
}

// writeNPY writes emb as a format version 1.0 .npy file of little-endian
// float64.
func writeNPY(w io.Writer, emb *mat.Dense) error {
	n, d := emb.Dims()
	if err := npy.WriteHeader(w, "<f8", n, d); err != nil {
		return err
	}
	row := make([]byte, 8*d)
	for i := 0; i < n; i++ {
		for c, v := range emb.RawRowView(i) {
			binary.LittleEndian.PutUint64(row[8*c:], math.Float64bits(v))
		}
		if _, err := w.Write(row); err != nil {
			return err
		}
	}
	return nil
}

// readNPY reads a 2-D little-endian float64 or float32 array in C order
// from r, a file of size bytes (−1: unknown). It checks the header's shape
// against the size before allocating, so a corrupt or hostile header cannot
// make it allocate more than the file holds; without a size it grows the
// array as rows arrive.
func readNPY(r io.Reader, size int64) (*mat.Dense, error) {
	h, err := npy.ReadHeader(r)
	if err != nil {
		return nil, fmt.Errorf(".npy header: %w", err)
	}
	var width int
	switch h.Descr {
	case "<f8":
		width = 8
	case "<f4":
		width = 4
	default:
		return nil, fmt.Errorf(".npy dtype %q: want little-endian float64 '<f8' or float32 '<f4'", h.Descr)
	}
	if h.Fortran {
		return nil, errors.New(".npy array is in Fortran order; want C order (numpy.ascontiguousarray)")
	}
	if len(h.Shape) != 2 || h.Shape[0] < 1 || h.Shape[1] < 1 {
		return nil, fmt.Errorf(".npy shape %s: want a non-empty 2-D array (n, d)", npy.ShapeString(h.Shape))
	}
	if _, err := h.DataBytes(width, size); err != nil {
		return nil, fmt.Errorf(".npy %w", err)
	}
	n, d := int(h.Shape[0]), int(h.Shape[1])
	capacity := n * d
	if size < 0 {
		capacity = min(capacity, 1<<16)
	}
	data := make([]float64, 0, capacity)
	row := make([]byte, width*d)
	for i := 0; i < n; i++ {
		if err := npy.ReadFull(r, row); err != nil {
			return nil, fmt.Errorf(".npy data, row %d: %w", i, err)
		}
		for c := range d {
			if width == 8 {
				data = append(data, math.Float64frombits(binary.LittleEndian.Uint64(row[8*c:])))
			} else {
				data = append(data, float64(math.Float32frombits(binary.LittleEndian.Uint32(row[4*c:]))))
			}
		}
	}
	return mat.NewDense(n, d, data), nil
}
