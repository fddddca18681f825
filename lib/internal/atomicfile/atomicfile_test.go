package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWrite checks that a write replaces the file with mode 0644 and leaves
// nothing else in the folder, and that a failing write leaves the old file
// and no temporary file.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	for _, tc := range []struct {
		name    string
		write   func(io.Writer) error
		wantErr error
		want    string
	}{
		{"failing write keeps the old file", func(w io.Writer) error {
			fmt.Fprint(w, "half")
			return boom
		}, boom, "old"},
		{"complete write replaces it", func(w io.Writer) error {
			_, err := fmt.Fprint(w, "new")
			return err
		}, nil, "new"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := Write(path, tc.write); !errors.Is(err, tc.wantErr) {
				t.Fatalf("Write: error %v, want %v", err, tc.wantErr)
			}
			got, err := os.ReadFile(path)
			if err != nil || string(got) != tc.want {
				t.Errorf("file holds %q (%v), want %q", got, err, tc.want)
			}
			entries, err := os.ReadDir(dir)
			if err != nil || len(entries) != 1 {
				t.Errorf("folder holds %v (%v), want only out.txt", entries, err)
			}
		})
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v), want 0644", st.Mode().Perm(), err)
	}
}

func TestWriteMissingFolder(t *testing.T) {
	err := Write(filepath.Join(t.TempDir(), "no", "such", "file"), func(io.Writer) error { return nil })
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v, want one wrapping os.ErrNotExist", err)
	}
}
