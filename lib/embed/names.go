package embed

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/csvfield"
	"github.com/oe-lab/oe/lib/triplets"
)

// NamesPath returns the names sidecar of an .npy embedding file, which
// holds its rows' names one a line: X.npy → X.names.txt.
func NamesPath(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ".names.txt"
}

// WriteNamedEmbedding writes emb with the names of its rows (items named in
// a triplet file, see triplets.Set.Names). A CSV file gets the header
// "name,x1,…,xd" and each row's name in its first column, quoted where
// needed (RFC 4180); an .npy file is written as WriteEmbedding writes it,
// with the names one a line in its sidecar NamesPath(path). With names nil
// it is WriteEmbedding, and it removes the sidecar an earlier named
// embedding left beside an .npy path, which would name the wrong rows.
// The files are written whole or not at all.
func WriteNamedEmbedding(path string, emb *mat.Dense, names []string) error {
	if names == nil {
		if err := WriteEmbedding(path, emb); err != nil {
			return err
		}
		if isNPY(path) {
			if err := os.Remove(NamesPath(path)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("embed: removing the stale names of %s: %w", path, err)
			}
		}
		return nil
	}
	if emb == nil {
		return fmt.Errorf("embed: write %s: nil embedding", path)
	}
	if n, _ := emb.Dims(); len(names) != n {
		return fmt.Errorf("embed: write %s: %d names for %d rows", path, len(names), n)
	}
	for i, nm := range names {
		if err := triplets.CheckName(nm); err != nil {
			return fmt.Errorf("embed: write %s: row %d: %w", path, i, err)
		}
	}
	if !isNPY(path) {
		if err := checkFinite(path, emb); err != nil {
			return err
		}
		return writeFile(path, func(w io.Writer) error { return writeNamedCSV(w, emb, names) })
	}
	if err := WriteEmbedding(path, emb); err != nil {
		return err
	}
	if err := writeFile(NamesPath(path), func(w io.Writer) error { return triplets.WriteNames(w, names) }); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

// checkFinite rejects an embedding with a NaN or infinite entry.
func checkFinite(path string, emb *mat.Dense) error {
	n, _ := emb.Dims()
	for i := 0; i < n; i++ {
		for c, v := range emb.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("embed: write %s: entry (%d, %d) is %v", path, i, c, v)
			}
		}
	}
	return nil
}

func writeNamedCSV(w io.Writer, emb *mat.Dense, names []string) error {
	n, d := emb.Dims()
	buf := []byte("name")
	for c := 1; c <= d; c++ {
		buf = append(buf, ",x"...)
		buf = strconv.AppendInt(buf, int64(c), 10)
	}
	buf = append(buf, '\n')
	for i := 0; i < n; i++ {
		buf = csvfield.Append(buf, names[i])
		for _, v := range emb.RawRowView(i) {
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
		buf = buf[:0]
	}
	return nil
}

// ReadNamedEmbedding reads an embedding with the names of its rows: the
// first column of a CSV file whose header's first field is "name" (as
// WriteNamedEmbedding writes it), or the sidecar NamesPath(path) of an
// .npy file. names is nil for an embedding without them. Names are checked
// as triplets.CheckName does, and one given twice is an error, as is a
// sidecar whose number of names differs from the rows; errors name the file
// and line.
func ReadNamedEmbedding(path string) (*mat.Dense, []string, error) {
	if isNPY(path) {
		emb, err := ReadEmbedding(path)
		if err != nil {
			return nil, nil, err
		}
		side := NamesPath(path)
		f, err := os.Open(side)
		if errors.Is(err, os.ErrNotExist) {
			return emb, nil, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("embed: %w", err)
		}
		defer f.Close()
		names, err := triplets.ReadNames(f, side)
		if err != nil {
			return nil, nil, err
		}
		if n, _ := emb.Dims(); len(names) != n {
			return nil, nil, fmt.Errorf("embed: %s: %d names for the %d rows of %s", side, len(names), n, path)
		}
		return emb, names, nil
	}
	named, err := readFile(path, nil, readNamedCSV)
	if err != nil {
		return nil, nil, err
	}
	if named.names == nil { // no header: a plain embedding
		emb, err := ReadEmbedding(path)
		return emb, nil, err
	}
	return named.emb, named.names, nil
}

// namedEmbedding is what readNamedCSV returns.
type namedEmbedding struct {
	emb   *mat.Dense
	names []string
}

// readNamedCSV reads a CSV embedding whose header is "name,…"; for any other
// first line it returns no names, and the file is a plain embedding.
func readNamedCSV(r io.Reader) (namedEmbedding, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	var (
		fields  [][]byte
		scratch []byte
		names   []string
		data    []float64
		d       = -1
		seen    = map[string]int{}
	)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var err error
		if fields, err = csvfield.Split(fields[:0], text, &scratch); err != nil {
			return namedEmbedding{}, fmt.Errorf("line %d: %w", line, err)
		}
		if d < 0 {
			if string(fields[0]) != "name" {
				return namedEmbedding{}, nil
			}
			if d = len(fields) - 1; d < 1 {
				return namedEmbedding{}, fmt.Errorf("line %d: a header of names without coordinates", line)
			}
			continue
		}
		if len(fields) != d+1 {
			return namedEmbedding{}, fmt.Errorf("line %d: %d columns, want %d as in the header", line, len(fields), d+1)
		}
		nm := string(fields[0])
		if err := triplets.CheckName(nm); err != nil {
			return namedEmbedding{}, fmt.Errorf("line %d: %w", line, err)
		}
		if first, dup := seen[nm]; dup {
			return namedEmbedding{}, fmt.Errorf("line %d: name %q already on line %d", line, nm, first)
		}
		seen[nm] = line
		names = append(names, nm)
		for _, f := range fields[1:] {
			v, err := strconv.ParseFloat(string(f), 64)
			if err != nil {
				return namedEmbedding{}, fmt.Errorf("line %d: %w", line, err)
			}
			data = append(data, v)
		}
	}
	if err := sc.Err(); err != nil {
		return namedEmbedding{}, err
	}
	if d >= 0 && len(names) == 0 {
		return namedEmbedding{}, errors.New("a header but no rows")
	}
	if d < 0 {
		return namedEmbedding{}, nil
	}
	return namedEmbedding{mat.NewDense(len(names), d, data), names}, nil
}
