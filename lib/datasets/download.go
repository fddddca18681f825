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

// download streams url into a temporary file beside dest, hashing as it
// writes, and renames it to dest only when a checksum matches; a partial or
// wrong download is removed.
func download(url, dest string, sums []Checksum) (err error) {
	resp, err := httpClient.Get(url)
	if err != nil {
		return fmt.Errorf("download %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("download %s: %s", url, resp.Status)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), filepath.Base(dest)+".download-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	d := newDigester(sums)
	if _, err = io.Copy(io.MultiWriter(tmp, d), resp.Body); err != nil {
		return fmt.Errorf("download %s: %w", url, err)
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if got := d.digests(); !match(sums, got) {
		err = fmt.Errorf("download %s: %w", url, &ChecksumError{Path: dest, Want: sums, Got: got})
		return err
	}
	return os.Rename(tmp.Name(), dest)
}
