package oenn

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestModelSaveLoad(t *testing.T) {
	m := smallModel(t)
	path := filepath.Join(t.TempDir(), "m.oenn")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Items() != m.Items() || got.Dim() != m.Dim() || got.Width() != m.Width() ||
		got.InputLen() != m.InputLen() || got.Encoding() != m.Encoding() {
		t.Fatalf("loaded shape (%d, %d, %d, %d, %v), saved (%d, %d, %d, %d, %v)",
			got.Items(), got.Dim(), got.Width(), got.InputLen(), got.Encoding(),
			m.Items(), m.Dim(), m.Width(), m.InputLen(), m.Encoding())
	}
	if !mat.Equal(got.Embedding(), m.Embedding()) {
		t.Error("loaded model embeds differently")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("save left %d files in its folder, want 1", len(entries))
	}
}

func TestModelRejectsBadFiles(t *testing.T) {
	var buf bytes.Buffer
	if _, err := smallModel(t).WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	flip := func(at int) []byte {
		b := bytes.Clone(good)
		b[at] ^= 0x40
		return b
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"wrong magic", append([]byte("NOTAMODL"), good[8:]...)},
		{"truncated", good[:len(good)-9]},
		{"corrupted weight", flip(len(good) - 20)},
		{"corrupted header", flip(14)},
		{"version 2", func() []byte { b := bytes.Clone(good); b[8] = 2; return b }()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.oenn")
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path)
			if !errors.Is(err, ErrBadModel) {
				t.Fatalf("err = %v, want ErrBadModel", err)
			}
			if !bytes.Contains([]byte(err.Error()), []byte(path)) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.oenn")); err == nil || errors.Is(err, ErrBadModel) {
		t.Errorf("missing file: err = %v, want a not-found error", err)
	}
}
