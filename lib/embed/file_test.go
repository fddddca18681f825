package embed

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/npy"
)

func TestEmbeddingFileRoundTrip(t *testing.T) {
	emb := mat.NewDense(3, 2, []float64{0, 1.5, -2.25, 1e-300, 12345.678, math.Pi})
	for _, name := range []string{"e.csv", "e.npy", "E.NPY"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			if err := WriteEmbedding(path, emb); err != nil {
				t.Fatal(err)
			}
			got, err := ReadEmbedding(path)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(got, emb) {
				t.Fatalf("read back %v, wrote %v", mat.Formatted(got), mat.Formatted(emb))
			}
			entries, _ := os.ReadDir(filepath.Dir(path))
			if len(entries) != 1 {
				t.Fatalf("temporary files left behind: %v", entries)
			}
		})
	}
}

// The .npy header must be what NumPy writes: padded so the data starts at a
// multiple of 64 bytes, ending in a newline.
func TestNPYHeaderLayout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e.npy")
	if err := WriteEmbedding(path, mat.NewDense(4, 3, nil)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	hlen := int(b[8]) | int(b[9])<<8
	if (10+hlen)%64 != 0 || b[10+hlen-1] != '\n' || len(b) != 10+hlen+4*3*8 {
		t.Fatalf("header length %d, file %d bytes, header %q", hlen, len(b), b[10:10+hlen])
	}
	if !strings.Contains(string(b[10:10+hlen]), "'shape': (4, 3)") {
		t.Fatalf("header %q lacks the shape", b[10:10+hlen])
	}
}

func TestEmbeddingFileErrors(t *testing.T) {
	dir := t.TempDir()
	nan := mat.NewDense(1, 2, []float64{1, math.NaN()})
	if err := WriteEmbedding(filepath.Join(dir, "nan.csv"), nan); err == nil || !strings.Contains(err.Error(), "(0, 1)") {
		t.Errorf("NaN entry: error %v", err)
	}
	ragged := filepath.Join(dir, "ragged.csv")
	os.WriteFile(ragged, []byte("1,2\n3\n"), 0o644)
	if _, err := ReadEmbedding(ragged); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("ragged CSV: error %v", err)
	}
	bad := filepath.Join(dir, "bad.npy")
	os.WriteFile(bad, []byte("not numpy"), 0o644)
	if _, err := ReadEmbedding(bad); err == nil || !strings.Contains(err.Error(), "bad.npy") {
		t.Errorf("bad .npy: error %v", err)
	}
	if err := WriteEmbedding(filepath.Join(dir, "missing", "e.csv"), nan.Slice(0, 1, 0, 1).(*mat.Dense)); err == nil {
		t.Error("write into a missing folder succeeded")
	}
}

// npyFile is a .npy file: the header numpy.save writes for descr and shape,
// then data.
func npyFile(t testing.TB, descr string, data []byte, shape ...int) []byte {
	var b bytes.Buffer
	if err := npy.WriteHeader(&b, descr, shape...); err != nil {
		t.Fatal(err)
	}
	return append(b.Bytes(), data...)
}

func TestReadEmbeddingNPY(t *testing.T) {
	f32 := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, math.Float32bits(1.5)), math.Float32bits(-2))
	for _, tc := range []struct {
		name, want string
		file       []byte
	}{
		{"float32 (1, 2)", "", npyFile(t, "<f4", f32, 1, 2)},
		{"header larger than the file", "header says shape (1000000000, 1000000000) of 8-byte elements", npyFile(t, "<f8", nil, 1_000_000_000, 1_000_000_000)},
		{"short data", "header says shape (1, 3) of 4-byte elements = 12 bytes of data, file has 8", npyFile(t, "<f4", f32, 1, 3)},
		{"trailing data", "file has 16", npyFile(t, "<f4", append(f32, f32...), 1, 2)},
		{"big-endian", "dtype \">f8\"", npyFile(t, ">f8", make([]byte, 8), 1, 1)},
		{"integers", "dtype \"<i4\"", npyFile(t, "<i4", make([]byte, 4), 1, 1)},
		{"1-D", "shape (2,)", npyFile(t, "<f4", f32, 2)},
		{"empty", "shape (0, 2)", npyFile(t, "<f4", nil, 0, 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "e.npy")
			if err := os.WriteFile(path, tc.file, 0o644); err != nil {
				t.Fatal(err)
			}
			emb, err := ReadEmbedding(path)
			if tc.want == "" {
				if err != nil || !mat.Equal(emb, mat.NewDense(1, 2, []float64{1.5, -2})) {
					t.Errorf("got %v, %v; want [1.5 -2]", emb, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %v, want it to name %s and contain %q", err, path, tc.want)
			}
		})
	}
}

// FuzzReadNPY checks that the .npy reader never panics, never allocates
// beyond the input's size, and that whatever it accepts survives a round
// trip through the writer.
func FuzzReadNPY(f *testing.F) {
	f.Add(npyFile(f, "<f8", make([]byte, 16), 1, 2))
	f.Add(npyFile(f, "<f4", make([]byte, 24), 3, 2))
	f.Add(npyFile(f, "<f8", nil, 1<<40, 1<<40))
	f.Fuzz(func(t *testing.T, data []byte) {
		emb, err := readNPY(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := writeNPY(&b, emb); err != nil {
			t.Fatal(err)
		}
		back, err := readNPY(&b, int64(b.Len()))
		if err != nil {
			t.Fatalf("reading back what writeNPY wrote: %v", err)
		}
		r, c := emb.Dims()
		for i := range r {
			for j := range c {
				if math.Float64bits(back.At(i, j)) != math.Float64bits(emb.At(i, j)) {
					t.Fatalf("round trip changed entry (%d, %d)", i, j)
				}
			}
		}
	})
}
