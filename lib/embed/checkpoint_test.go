package embed

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCheckpointFile: a checkpoint reads back as written, its header alone
// as well; a missing file is no error, a damaged one is, naming it.
func TestCheckpointFile(t *testing.T) {
	type state struct {
		Params []byte
		Steps  int
	}
	path := filepath.Join(t.TempDir(), "sub", "run.ckpt")
	h := CheckpointHeader{ID: "key", Epochs: 12, Elapsed: 90 * time.Second}
	if err := WriteCheckpoint(path, h, &state{Params: []byte{1, 2, 3}, Steps: 7}); err != nil {
		t.Fatal(err)
	}
	var got state
	if gh, ok, err := ReadCheckpoint(path, &got); err != nil || !ok || gh != h || got.Steps != 7 || string(got.Params) != "\x01\x02\x03" {
		t.Errorf("read back: header %+v, state %+v, ok %v, err %v; want %+v and the state written", gh, got, ok, err, h)
	}
	if gh, ok, err := ReadCheckpoint(path, nil); err != nil || !ok || gh != h {
		t.Errorf("header alone: %+v, ok %v, err %v; want %+v", gh, ok, err, h)
	}
	if _, ok, err := ReadCheckpoint(filepath.Join(t.TempDir(), "none"), nil); ok || err != nil {
		t.Errorf("no file: ok %v, err %v; want neither", ok, err)
	}
	if err := os.WriteFile(path, []byte("not a checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadCheckpoint(path, nil); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a damaged file: err %v, want one naming %s", err, path)
	}
}
