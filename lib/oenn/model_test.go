package oenn

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestModelSaveLoad(t *testing.T) {
	for _, enc := range []Encoding{Binary, Random, BinaryIndex} {
		t.Run(enc.String(), func(t *testing.T) {
			m := smallModelCoded(t, enc)
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
		})
	}
}

// TestModelReadsVersion1: a model file of format 1, whose encoding 0 meant
// the binary code of the index and which held no table for it, loads as a
// BinaryIndex model that embeds as before.
func TestModelReadsVersion1(t *testing.T) {
	m := smallModelCoded(t, BinaryIndex)
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	v1 := bytes.Clone(buf.Bytes())
	le := binary.LittleEndian
	le.PutUint32(v1[len(modelMagic):], 1)
	le.PutUint32(v1[len(modelMagic)+4*6:], 0)
	le.PutUint32(v1[len(v1)-4:], crc32.ChecksumIEEE(v1[:len(v1)-4]))
	got, err := ReadModel(bytes.NewReader(v1))
	if err != nil {
		t.Fatal(err)
	}
	if got.Encoding() != BinaryIndex || !mat.Equal(got.Embedding(), m.Embedding()) {
		t.Errorf("version 1 file read as %v, embedding equal %v; want binary index, true", got.Encoding(), mat.Equal(got.Embedding(), m.Embedding()))
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
		{"version 3", func() []byte { b := bytes.Clone(good); b[8] = 3; return b }()},
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
