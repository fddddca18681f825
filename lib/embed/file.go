package embed

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// WriteEmbedding writes emb to path, as CSV (one row per item, no header)
// or, when path ends in .npy, as a float64 (n, d) NumPy array. The file is
// written to a temporary name beside path and renamed into place, so a
// reader never sees half a file. A non-finite entry is an error.
func WriteEmbedding(path string, emb *mat.Dense) error {
	if emb == nil {
		return fmt.Errorf("embed: write %s: nil embedding", path)
	}
	n, _ := emb.Dims()
	for i := 0; i < n; i++ {
		for c, v := range emb.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("embed: write %s: entry (%d, %d) is %v", path, i, c, v)
			}
		}
	}
	return writeFile(path, func(w io.Writer) error {
		if isNPY(path) {
			return writeNPY(w, emb)
		}
		return writeCSV(w, emb)
	})
}

// writeFile has write fill a temporary file beside path and renames it into
// place, so that a reader never sees half a file.
func writeFile(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("embed: write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := bufio.NewWriterSize(tmp, 1<<16)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Chmod(0o644) // CreateTemp makes it private
	}
	if err == nil {
		err = tmp.Close()
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("embed: write %s: %w", path, err)
	}
	return nil
}

// ReadEmbedding reads an embedding written by WriteEmbedding (or any CSV of
// equally long numeric rows, or a float64/float32 2-D .npy array).
func ReadEmbedding(path string) (*mat.Dense, error) {
	return readFile(path, readNPY, readCSV)
}

// readFile reads path with fromNPY when it ends in .npy, else with fromCSV.
func readFile[T any](path string, fromNPY, fromCSV func(io.Reader) (T, error)) (T, error) {
	var v T
	f, err := os.Open(path)
	if err != nil {
		return v, fmt.Errorf("embed: %w", err)
	}
	defer f.Close()
	if isNPY(path) {
		v, err = fromNPY(bufio.NewReader(f))
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

// writeNPY writes format version 1.0: magic, header length, a Python dict
// literal padded with spaces to a multiple of 64 bytes, then the data.
func writeNPY(w io.Writer, emb *mat.Dense) error {
	n, d := emb.Dims()
	if err := writeNPYHeader(w, fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }", n, d)); err != nil {
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

// writeNPYHeader writes the magic, version 1.0 and the header dictionary
// dict, padded with spaces so that the data starts at a multiple of 64 bytes.
func writeNPYHeader(w io.Writer, dict string) error {
	pad := 64 - (10+len(dict)+1)%64
	header := dict + strings.Repeat(" ", pad%64) + "\n"
	var pre [10]byte
	copy(pre[:], "\x93NUMPY\x01\x00")
	binary.LittleEndian.PutUint16(pre[8:], uint16(len(header)))
	if _, err := w.Write(pre[:]); err != nil {
		return err
	}
	_, err := io.WriteString(w, header)
	return err
}

var (
	npyDescr = regexp.MustCompile(`'descr':\s*'([<|=]?)(f8|f4)'`)
	npyOrder = regexp.MustCompile(`'fortran_order':\s*(True|False)`)
	npyShape = regexp.MustCompile(`'shape':\s*\(\s*(\d+)\s*,\s*(\d+)\s*,?\s*\)`)
)

func readNPY(r io.Reader) (*mat.Dense, error) {
	header, err := readNPYHeaderText(r)
	if err != nil {
		return nil, err
	}
	descr := npyDescr.FindSubmatch(header)
	order := npyOrder.FindSubmatch(header)
	shape := npyShape.FindSubmatch(header)
	if descr == nil || shape == nil {
		return nil, fmt.Errorf("want a little-endian float64 or float32 2-D array, header is %q", bytes.TrimSpace(header))
	}
	if order != nil && string(order[1]) == "True" {
		return nil, errors.New("Fortran-order arrays are not supported")
	}
	n, _ := strconv.Atoi(string(shape[1]))
	d, _ := strconv.Atoi(string(shape[2]))
	if n < 1 || d < 1 {
		return nil, fmt.Errorf("empty array of shape (%d, %d)", n, d)
	}
	size := 8
	if string(descr[2]) == "f4" {
		size = 4
	}
	raw := make([]byte, n*d*size)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, fmt.Errorf("data of shape (%d, %d): %w", n, d, err)
	}
	data := make([]float64, n*d)
	for e := range data {
		if size == 8 {
			data[e] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*e:]))
		} else {
			data[e] = float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*e:])))
		}
	}
	return mat.NewDense(n, d, data), nil
}

// readNPYHeaderText reads the magic, version and header length of a .npy
// stream and returns the header dictionary's text.
func readNPYHeaderText(r io.Reader) ([]byte, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil || !bytes.Equal(pre[:6], []byte("\x93NUMPY")) {
		return nil, errors.New("not a .npy file")
	}
	var hlen int
	switch pre[6] {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, err
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, err
		}
		hlen = int(binary.LittleEndian.Uint32(b[:]))
	default:
		return nil, fmt.Errorf("unsupported .npy version %d", pre[6])
	}
	if hlen > 1<<16 {
		return nil, fmt.Errorf(".npy header of %d bytes is too long", hlen)
	}
	header := make([]byte, hlen)
	if _, err := io.ReadFull(r, header); err != nil {
		return nil, err
	}
	return header, nil
}
