package datasets

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oe-lab/oe/lib/internal/atomicfile"
)

// maxMember bounds the size of one file extracted from an archive: the
// largest held today is 2 MB of JSON.
const maxMember = 1 << 28

// extract downloads the .tar.gz archive at url once and writes each of
// files (those that name a Member in it) to its dest: gzip-compressed when
// dest ends in ".gz", else as it is. Every file is verified by the checksum
// of its content before anything is written, and nothing is left at a
// dest unless all verified.
func extract(url string, files []File, dests []string) error {
	body, err := get(url)
	if err != nil {
		return err
	}
	defer body.Close()
	contents, err := readMembers(body, files)
	if err != nil {
		return fmt.Errorf("download %s: %w", url, err)
	}
	for i, f := range files {
		d := newDigester(f.Sums)
		d.Write(contents[i])
		if got := d.digests(); !match(f.Sums, got) {
			return &ChecksumError{Path: url + " → " + f.Member, Want: f.Sums, Got: got}
		}
	}
	var written []string
	for i, dest := range dests {
		if err := writeAtomic(dest, contents[i], strings.HasSuffix(dest, ".gz")); err != nil {
			for _, w := range written {
				os.Remove(w)
			}
			return err
		}
		written = append(written, dest)
	}
	return nil
}

// readMembers reads a .tar.gz stream and returns the content of each file's
// Member (see File.Member), or an error naming a member it lacks.
func readMembers(r io.Reader, files []File) ([][]byte, error) {
	z, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a .tar.gz archive: %w", err)
	}
	contents := make([][]byte, len(files))
	lists := make([][]string, len(files))
	tr := tar.NewReader(z)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading the archive: %w", err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		_, name, _ := strings.Cut(h.Name, "/") // below the snapshot's top folder
		for i, f := range files {
			if dir, ext, isList := listMember(f.Member); isList {
				if path.Dir(name) == dir && strings.HasSuffix(name, ext) {
					lists[i] = append(lists[i], strings.TrimSuffix(path.Base(name), ext))
				}
				continue
			}
			if name != f.Member {
				continue
			}
			if h.Size > maxMember {
				return nil, fmt.Errorf("%s: %d bytes, more than the %d a dataset file may have", name, h.Size, maxMember)
			}
			if contents[i], err = io.ReadAll(tr); err != nil {
				return nil, fmt.Errorf("reading %s in the archive: %w", name, err)
			}
		}
	}
	for i, f := range files {
		if _, _, isList := listMember(f.Member); isList && len(lists[i]) > 0 {
			slices.Sort(lists[i])
			contents[i] = []byte(strings.Join(lists[i], "\n") + "\n")
		}
		if contents[i] == nil {
			return nil, fmt.Errorf("the archive holds no %s", f.Member)
		}
	}
	return contents, nil
}

// listMember splits a Member "DIR/*.EXT" into DIR and ".EXT"; isList is
// false for the name of one file.
func listMember(member string) (dir, ext string, isList bool) {
	dir, pattern := path.Split(member)
	if !strings.HasPrefix(pattern, "*.") {
		return "", "", false
	}
	return path.Clean(dir), pattern[1:], true
}

// writeAtomic writes data (gzip-compressed when compress is set) to dest,
// whole or not at all (lib/internal/atomicfile).
func writeAtomic(dest string, data []byte, compress bool) error {
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(dest, func(w io.Writer) error {
		if !compress {
			_, err := w.Write(data)
			return err
		}
		z, _ := gzip.NewWriterLevel(w, gzip.BestCompression) // a valid level: no error
		if _, err := z.Write(data); err != nil {
			return err
		}
		return z.Close()
	})
}
