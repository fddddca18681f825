package embed

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestNamedEmbeddingRoundTrip(t *testing.T) {
	emb := mat.NewDense(3, 2, []float64{0.5, -1, 2, 3.25, 1e-9, 4})
	names := []string{"ash", "red, dark", " padded"}
	for _, ext := range []string{".csv", ".npy"} {
		t.Run(ext, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "emb"+ext)
			if err := WriteNamedEmbedding(path, emb, names); err != nil {
				t.Fatal(err)
			}
			got, gotNames, err := ReadNamedEmbedding(path)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(got, emb) || !slices.Equal(gotNames, names) {
				t.Errorf("read back %v %q", mat.Formatted(got), gotNames)
			}
			if ext == ".csv" {
				text, _ := os.ReadFile(path)
				if want := "name,x1,x2\nash,0.5,-1\n\"red, dark\",2,3.25\n\" padded\",1e-09,4\n"; string(text) != want {
					t.Errorf("wrote %q, want %q", text, want)
				}
				return
			}
			side, _ := os.ReadFile(NamesPath(path))
			if string(side) != "ash\nred, dark\n padded\n" {
				t.Errorf("sidecar %q", side)
			}
			// An unnamed embedding written over it drops the stale sidecar.
			if err := WriteNamedEmbedding(path, emb, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(NamesPath(path)); !os.IsNotExist(err) {
				t.Errorf("stale sidecar kept: %v", err)
			}
			if _, gotNames, err := ReadNamedEmbedding(path); err != nil || gotNames != nil {
				t.Errorf("unnamed .npy read with names %q, %v", gotNames, err)
			}
		})
	}
}

func TestReadNamedEmbeddingPlain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plain.csv")
	os.WriteFile(path, []byte("1,2\n3,4\n5,6\n"), 0o644)
	emb, names, err := ReadNamedEmbedding(path)
	if err != nil || names != nil {
		t.Fatalf("plain CSV: names %q, %v", names, err)
	}
	if r, c := emb.Dims(); r != 3 || c != 2 {
		t.Errorf("plain CSV read as %d×%d", r, c)
	}
}

// TestNamedEmbeddingErrors covers issue #20's bad input on embeddings: a
// sidecar that does not match the rows, names twice, malformed rows.
func TestNamedEmbeddingErrors(t *testing.T) {
	dir := t.TempDir()
	emb := mat.NewDense(3, 1, []float64{1, 2, 3})
	npy := filepath.Join(dir, "e.npy")
	if err := WriteEmbedding(npy, emb); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(NamesPath(npy), []byte("a\nb\n"), 0o644)
	if _, _, err := ReadNamedEmbedding(npy); err == nil || !strings.Contains(err.Error(), "e.names.txt: 2 names for the 3 rows of "+npy) {
		t.Errorf("short sidecar: %v", err)
	}
	os.WriteFile(NamesPath(npy), []byte("a\nb\na\n"), 0o644)
	if _, _, err := ReadNamedEmbedding(npy); err == nil || !strings.Contains(err.Error(), `e.names.txt:3: name "a" already on line 1`) {
		t.Errorf("sidecar with a name twice: %v", err)
	}
	for _, tc := range []struct{ name, csv, want string }{
		{"name twice", "name,x1\na,1\nb,2\na,3\n", `line 4: name "a" already on line 2`},
		{"columns", "name,x1,x2\na,1,2\nb,2\n", "line 3: 2 columns, want 3 as in the header"},
		{"not a number", "name,x1\na,one\n", `line 2: strconv.ParseFloat: parsing "one"`},
		{"integer name", "name,x1\n7,1\n", `line 2: name "7" is an integer`},
		{"empty name", "name,x1\n,1\n", "line 2: empty name"},
		{"header only", "name,x1\n", "a header but no rows"},
		{"no coordinates", "name\na\n", "line 1: a header of names without coordinates"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".csv")
			os.WriteFile(path, []byte(tc.csv), 0o644)
			if _, _, err := ReadNamedEmbedding(path); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %v, want it to name %s and contain %q", err, path, tc.want)
			}
		})
	}
	if err := WriteNamedEmbedding(filepath.Join(dir, "w.csv"), emb, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "2 names for 3 rows") {
		t.Errorf("writing too few names: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "w.csv")); !os.IsNotExist(err) {
		t.Error("w.csv written despite the error")
	}
}

// FuzzReadNamedCSV checks that the named-embedding reader never panics and
// that what it accepts as named survives a round trip through the writer.
func FuzzReadNamedCSV(f *testing.F) {
	f.Add([]byte("name,x1,x2\nash,0.5,-1\n\"red, dark\",2,3.25\n"))
	f.Add([]byte("1,2\n3,4\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := readNamedCSV(bytes.NewReader(data))
		if err != nil || got.names == nil {
			return
		}
		var b bytes.Buffer
		if err := writeNamedCSV(&b, got.emb, got.names); err != nil {
			t.Fatal(err)
		}
		back, err := readNamedCSV(&b)
		if err != nil || !slices.Equal(back.names, got.names) {
			t.Fatalf("round trip: %q, %v; want %q", back.names, err, got.names)
		}
		// NaN ≠ NaN: compare the bits the writer's 'g' format keeps.
		if !mat.EqualApprox(back.emb, got.emb, 0) && !hasNaN(got.emb) {
			t.Fatalf("round trip changed the values")
		}
	})
}

func hasNaN(m *mat.Dense) bool {
	r, c := m.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if math.IsNaN(m.At(i, j)) {
				return true
			}
		}
	}
	return false
}
