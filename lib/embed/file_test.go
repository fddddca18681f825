package embed

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
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
