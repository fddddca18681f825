package datasets

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/oe-lab/oe/lib/internal/atomicfile"
)

// httpClient bounds how long a dead server can stall a download; the overall
// limit leaves room for the largest file (Fashion-MNIST, 26 MB) on a slow link.
var httpClient = &http.Client{
	Timeout: 30 * time.Minute,
	Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   30 * time.Second,
		ResponseHeaderTimeout: time.Minute,
	},
}

// fetch downloads f to dest from its URL, then its mirrors, keeping the first
// copy whose checksum verifies. Nothing is left at dest unless it verified.
func fetch(f File, dest string) error {
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	var errs []error
	for _, url := range append([]string{f.URL}, f.Mirrors...) {
		err := download(url, dest, f.Sums)
		if err == nil {
			return nil
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// download streams url into dest, hashing as it writes, and lets dest
// appear (atomically, lib/internal/atomicfile) only when a checksum matches;
// a partial or wrong download leaves nothing behind.
func download(url, dest string, sums []Checksum) error {
	body, err := get(url)
	if err != nil {
		return err
	}
	defer body.Close()
	return atomicfile.Write(dest, func(w io.Writer) error {
		d := newDigester(sums)
		if _, err := io.Copy(io.MultiWriter(w, d), body); err != nil {
			return fmt.Errorf("download %s: %w", url, err)
		}
		if got := d.digests(); !match(sums, got) {
			return fmt.Errorf("download %s: %w", url, &ChecksumError{Path: dest, Want: sums, Got: got})
		}
		return nil
	})
}

// get starts downloading url: the response body of a 200 OK, else an error
// naming url.
func get(url string) (io.ReadCloser, error) {
	resp, err := httpClient.Get(url)
	if err != nil {
		return nil, fmt.Errorf("download %s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("download %s: %s", url, resp.Status)
	}
	return resp.Body, nil
}
