// Package atomicfile writes files so that a reader, or the next run after a
// crash, sees either the old file or the complete new one, never part of
// one: the content goes to a temporary file beside the target, which is
// flushed, synced to disk, closed and renamed over the target, and the
// folder is synced so that the rename itself is durable. It is the one
// writer of oe's output files (triplet sets, embeddings, OENN models,
// downloaded datasets).
package atomicfile

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// Write creates or replaces the file at path with what write writes to the
// buffered writer it is given, with permissions 0644. When write (or any
// step after it) fails, path is left as it was, the temporary file is
// removed, and the error is returned unchanged.
func Write(path string, write func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	if err = write(w); err != nil {
		return err
	}
	if err = w.Flush(); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil { // CreateTemp makes it private
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir makes a rename in dir durable. Not every file system can sync a
// folder (some report EINVAL); that loses only durability, not atomicity,
// so those errors are ignored.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !isUnsupported(err) {
		return err
	}
	return nil
}

// isUnsupported reports whether err says that the file system cannot sync
// a folder.
func isUnsupported(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, errors.ErrUnsupported)
}
