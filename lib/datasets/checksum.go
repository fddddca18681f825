package datasets

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"strings"
)

// Checksum is one published digest of a file.
type Checksum struct {
	Algo   string // "sha256" or "md5"
	Hex    string // lower-case hex digest
	Source string // where the digest was published or computed
}

func sha256Sum(hex, source string) Checksum {
	return Checksum{Algo: "sha256", Hex: hex, Source: source}
}
func md5Sum(hex, source string) Checksum { return Checksum{Algo: "md5", Hex: hex, Source: source} }

// String writes the checksum as algo:hex.
func (c Checksum) String() string { return c.Algo + ":" + c.Hex }

// digester hashes a stream with every algorithm a file's checksums use, so a
// file is read once however many checksums it has.
type digester struct {
	algos  []string
	hashes []hash.Hash
}

func newDigester(sums []Checksum) *digester {
	d := &digester{}
	for _, c := range sums {
		if d.index(c.Algo) >= 0 {
			continue
		}
		var h hash.Hash
		switch c.Algo {
		case "sha256":
			h = sha256.New()
		case "md5":
			h = md5.New()
		default:
			// The registry is static; an unknown algorithm is a programming error.
			panic("datasets: unknown checksum algorithm " + c.Algo)
		}
		d.algos = append(d.algos, c.Algo)
		d.hashes = append(d.hashes, h)
	}
	return d
}

func (d *digester) index(algo string) int {
	for i, a := range d.algos {
		if a == algo {
			return i
		}
	}
	return -1
}

func (d *digester) Write(p []byte) (int, error) {
	for _, h := range d.hashes {
		h.Write(p) // hash.Hash.Write never fails
	}
	return len(p), nil
}

// digests returns the hex digest per algorithm.
func (d *digester) digests() map[string]string {
	out := make(map[string]string, len(d.algos))
	for i, a := range d.algos {
		out[a] = hex.EncodeToString(d.hashes[i].Sum(nil))
	}
	return out
}

// match reports whether any checksum agrees with the computed digests.
func match(sums []Checksum, got map[string]string) bool {
	for _, c := range sums {
		if strings.EqualFold(got[c.Algo], c.Hex) {
			return true
		}
	}
	return false
}

// ChecksumError reports a file whose digest matches none of its checksums.
type ChecksumError struct {
	Path string
	Want []Checksum
	Got  map[string]string // algorithm → computed hex digest
}

func (e *ChecksumError) Error() string {
	parts := make([]string, len(e.Want))
	for i, c := range e.Want {
		parts[i] = fmt.Sprintf("%s is %s, want %s (%s)", c.Algo, e.Got[c.Algo], c.Hex, c.Source)
	}
	return fmt.Sprintf("datasets: checksum mismatch for %s: %s", e.Path, strings.Join(parts, "; or "))
}

// hashFile computes the digests of the file at path for the algorithms sums
// use: of its bytes, or, when content is set, of its content after undoing
// gzip or bzip2 compression (openData).
func hashFile(path string, sums []Checksum, content bool) (map[string]string, error) {
	var r io.ReadCloser
	var err error
	if content {
		r, err = openData(path)
	} else {
		r, err = os.Open(path)
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	d := newDigester(sums)
	if _, err := io.Copy(d, r); err != nil {
		return nil, fmt.Errorf("datasets: reading %s: %w", path, err)
	}
	return d.digests(), nil
}

// verifyFile returns a *ChecksumError when the copy of f at path matches
// none of its checksums: those of its bytes, or for a file extracted from
// an archive (File.Member), of its content.
func verifyFile(path string, f File) error {
	got, err := hashFile(path, f.Sums, f.Member != "")
	if err != nil {
		return err
	}
	if !match(f.Sums, got) {
		return &ChecksumError{Path: path, Want: f.Sums, Got: got}
	}
	return nil
}
