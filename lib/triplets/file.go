package triplets

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oe-lab/oe/lib/internal/atomicfile"
)

// ReadFile reads a triplet file, choosing the format by the extension of path:
// ".csv" (or ".txt") for CSV, ".npy" for NumPy. n is the number of items; with
// n = 0 the reader takes it from the file (CSV "# n=N" line) or, failing
// that, infers it as the largest index + 1. Errors name path and the line
// (CSV) or the header field (NPY) at fault. ReadFile is ReadFileWith with
// default options, without the form.
func ReadFile(path string, n int) (*Set, error) {
	s, _, err := ReadFileWith(path, ReadOptions{N: n})
	return s, err
}

// ReadFileWith reads a triplet file as ReadFile does, a CSV file in either
// form (see ReadCSVWith), and says which form it was; .npy files hold
// numbered triplets.
func ReadFileWith(path string, opt ReadOptions) (*Set, Form, error) {
	format, err := FileFormat(path)
	if err != nil {
		return nil, 0, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("triplets: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	if format == "npy" {
		size := int64(-1)
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
		s, err := readNPY(r, path, opt.N, size)
		return s, FormTriplets, err
	}
	return ReadCSVWith(r, path, opt)
}

// WriteFile writes s to path in the format named by its extension (see
// ReadFile), atomically (lib/internal/atomicfile): a failed or interrupted
// write never leaves a truncated triplet file under path.
func WriteFile(path string, s *Set) error { return WriteFileAs(path, s, FormTriplets) }

// WriteFileAs is WriteFile in the given form: FormResponses writes a CSV
// responses file (WriteResponsesCSV). A .npy file holds numbered triplets
// only, so a named set or the responses form is an error there.
func WriteFileAs(path string, s *Set, form Form) error {
	format, err := FileFormat(path)
	if err != nil {
		return err
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("triplets: not writing %s: %w", path, err)
	}
	if format == "npy" && (s.Names != nil || form != FormTriplets) {
		return fmt.Errorf("triplets: not writing %s: a .npy file holds numbered triplets, not item names or responses; write .csv", path)
	}
	err = atomicfile.Write(path, func(w io.Writer) error {
		switch {
		case format == "npy":
			return WriteNPY(w, s)
		case form == FormResponses:
			return WriteResponsesCSV(w, s)
		}
		return WriteCSV(w, s)
	})
	if err != nil {
		return fmt.Errorf("triplets: writing %s: %w", path, err)
	}
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
	if n < 0 || n > MaxItems {
		return fmt.Errorf("triplets: %s: number of items %d out of range [0, %d]", name, n, MaxItems)
	}
	if n > 0 && n < 3 {
		return fmt.Errorf("triplets: %s: need at least 3 items, caller gave n=%d", name, n)
	}
	return nil
}

// finish sets the item count of a freshly read set: n if the caller or
// the file declared one, else the largest index + 1. It rejects empty sets,
// which Validate would reject too, so that every set a reader returns
// validates. Where n is inferred, it rejects a largest index beyond the
// int32 range, and one that leaves most items, and over maxAbsent, in no
// triplet: a typo or a corrupt file, for which a method would allocate and
// embed millions of items that do not exist. where(row) locates triplet row
// in the file for the error (":LINE" or ": row R").
func finish(name string, idx []int32, n int, where func(row int) string) (*Set, error) {
	if len(idx) == 0 {
		return nil, fmt.Errorf("triplets: %s: no triplets", name)
	}
	if n > 0 {
		return &Set{N: n, Idx: idx}, nil
	}
	top, at := int32(-1), 0
	for p, v := range idx {
		if v > top {
			top, at = v, p
		}
	}
	if top >= MaxItems {
		return nil, fmt.Errorf("triplets: %s%s: index %d is too large: items are numbered 0 to %d at most", name, where(at/3), top, MaxItems-1)
	}
	n = int(top) + 1
	if present := itemsPresent(idx, n); 2*present < n && n-present > maxAbsent {
		return nil, fmt.Errorf("triplets: %s%s: index %d makes n = %d items, but only %d of them appear in a triplet; "+
			"give the number of items (oerun --n, or a \"# n=N\" line) if there really are that many",
			name, where(at/3), top, n, present)
	}
	return &Set{N: n, Idx: idx}, nil
}

// maxAbsent is how many items of an inferred item count may appear in no
// triplet when most do not: a sparse file of a few thousand items is fine
// (an OENN extension's triplets touch few of the model's items), a million
// missing ones are a mistake.
const maxAbsent = 1 << 20

// itemsPresent returns how many of the items 0..n-1 appear in idx, with
// memory in proportion to the smaller of n and len(idx).
func itemsPresent(idx []int32, n int) int {
	if len(idx) < n/64 {
		sorted := slices.Clone(idx)
		slices.Sort(sorted)
		return len(slices.Compact(sorted))
	}
	seen := make([]uint64, (n+63)/64)
	present := 0
	for _, v := range idx {
		w, b := v/64, uint64(1)<<(v%64)
		if seen[w]&b == 0 {
			seen[w] |= b
			present++
		}
	}
	return present
}
