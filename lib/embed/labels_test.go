package embed

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/internal/npy"
)

func TestLabelsFileRoundTrip(t *testing.T) {
	labels := []int{0, 3, -1, 2147483647, 7}
	for _, name := range []string{"y.csv", "y.npy", "y.txt"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			if err := WriteLabels(path, labels); err != nil {
				t.Fatal(err)
			}
			got, err := ReadLabels(path)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, labels) {
				t.Errorf("read back %v, wrote %v", got, labels)
			}
		})
	}
}

// labelsNPY builds a .npy file as NumPy writes it: header dictionary dict,
// then data.
func labelsNPY(t *testing.T, dict string, data []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := npy.WriteDict(&b, dict); err != nil {
		t.Fatal(err)
	}
	b.Write(data)
	path := filepath.Join(t.TempDir(), "y.npy")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func le(width int, vals ...float64) []byte {
	var b []byte
	for _, v := range vals {
		switch width {
		case 4:
			b = binary.LittleEndian.AppendUint32(b, uint32(int32(v)))
		case 8:
			b = binary.LittleEndian.AppendUint64(b, uint64(int64(v)))
		default: // float64
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

func TestReadLabelsNPY(t *testing.T) {
	tests := []struct {
		name, dict string
		data       []byte
		want       []int
	}{
		{"int64 (n,)", "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", le(8, 2, 0, 1), []int{2, 0, 1}},
		{"int32 (n, 1)", "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 1), }", le(4, -3, 9), []int{-3, 9}},
		{"whole float64", "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", le(0, 4, 5), []int{4, 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadLabels(labelsNPY(t, tc.dict, tc.data))
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestReadLabelsErrors(t *testing.T) {
	dir := t.TempDir()
	text := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, path, want string
	}{
		{"not an integer", text("a.csv", "1\n2\n2.5\n"), `a.csv: line 3: label "2.5" is not an integer`},
		{"empty", text("b.csv", "# labels\n\n"), "b.csv: no labels"},
		{"missing", filepath.Join(dir, "none.csv"), "none.csv: no such file"},
		{"two columns", labelsNPY(t, "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 2), }", le(8, 1, 2, 3, 4)), "want labels as"},
		{"fractional", labelsNPY(t, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", le(0, 1, 1.5)), "element 1: label 1.5 is not a whole number"},
		{"Fortran order", labelsNPY(t, "{'descr': '<i8', 'fortran_order': True, 'shape': (2, 1), }", le(8, 1, 2)), "in C order"},
		{"truncated", labelsNPY(t, "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", le(8, 1, 2)), "header says shape (3,) of 8-byte elements = 24 bytes of data, file has 16"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadLabels(tc.path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// FuzzReadLabelsNPY checks that the labels' .npy reader never panics or
// allocates beyond its input, and that what it accepts survives a round
// trip through the writer.
func FuzzReadLabelsNPY(f *testing.F) {
	for _, seed := range []struct {
		descr string
		n     int
		data  []byte
	}{{"<i8", 3, le(8, 2, 0, 1)}, {"<i4", 2, le(4, -3, 9)}, {"<f8", 2, le(0, 4, 5)}} {
		var h bytes.Buffer
		if err := npy.WriteHeader(&h, seed.descr, seed.n); err != nil {
			f.Fatal(err)
		}
		f.Add(append(h.Bytes(), seed.data...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		labels, err := readLabelsNPY(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := writeLabelsNPY(&b, labels); err != nil {
			t.Fatal(err)
		}
		back, err := readLabelsNPY(&b, int64(b.Len()))
		if err != nil || !slices.Equal(back, labels) {
			t.Fatalf("round trip: %v, %v; wrote %v", back, err, labels)
		}
	})
}
