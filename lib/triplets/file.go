package triplets

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// ReadFile reads a triplet file, choosing the format by the extension of path:
// ".csv" (or ".txt") for CSV, ".npy" for NumPy. n is the number of items; with
// n = 0 the reader takes it from the file (CSV "# n=N" line) or, failing
// that, infers it as the largest index + 1. Errors name path and the line
// (CSV) or the header field (NPY) at fault.
func ReadFile(path string, n int) (*Set, error) {
	format, err := FileFormat(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("triplets: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	if format == "npy" {
		size := int64(-1)
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
		return readNPY(r, path, n, size)
	}
	return ReadCSV(r, path, n)
}

// WriteFile writes s to path in the format named by its extension (see
// ReadFile). It writes to a temporary file in the same directory and renames
// it into place, so a failed or interrupted write never leaves a truncated
// triplet file under path.
func WriteFile(path string, s *Set) error {
	format, err := FileFormat(path)
	if err != nil {
		return err
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("triplets: not writing %s: %w", path, err)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("triplets: %w", err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := bufio.NewWriterSize(tmp, 1<<20)
	if format == "npy" {
		err = WriteNPY(w, s)
	} else {
		err = WriteCSV(w, s)
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("triplets: writing %s: %w", path, err)
	}
	done = true
	return nil
}

// FileFormat returns the format of a triplet file path by its extension,
// "csv" (.csv, .txt) or "npy" (.npy), or an error naming the extension.
func FileFormat(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".txt":
		return "csv", nil
	case ".npy":
		return "npy", nil
	}
	return "", fmt.Errorf("triplets: %s: unknown triplet file extension %q (want .csv, .txt or .npy)", path, filepath.Ext(path))
}

// checkN rejects item counts that cannot index an int32 triplet set.
func checkN(name string, n int) error {
	if n < 0 || n > math.MaxInt32 {
		return fmt.Errorf("triplets: %s: number of items %d out of range [0, %d]", name, n, math.MaxInt32)
	}
	if n > 0 && n < 3 {
		return fmt.Errorf("triplets: %s: need at least 3 items, caller gave n=%d", name, n)
	}
	return nil
}

// finish sets the item count of a freshly read set: n if the caller gave
// one, else the largest index + 1. It rejects empty sets, which Validate
// would reject too, so that every set a reader returns validates.
func finish(name string, idx []int32, n int) (*Set, error) {
	if len(idx) == 0 {
		return nil, fmt.Errorf("triplets: %s: no triplets", name)
	}
	if n == 0 {
		var top int32
		for _, v := range idx {
			top = max(top, v)
		}
		n = int(top) + 1
	}
	return &Set{N: n, Idx: idx}, nil
}

// errTruncated marks data that ends before the header says it should.
var errTruncated = errors.New("truncated data")

// readFull is io.ReadFull that reports a short read as errTruncated.
func readFull(r io.Reader, b []byte) error {
	_, err := io.ReadFull(r, b)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errTruncated
	}
	return err
}
