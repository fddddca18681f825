package datasets

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// isolate points every search folder at empty temporary ones, so a test sees
// only the files it creates: $OE_DATA, the cache, and a working directory
// with no go.mod above it (hence no data/ folder). It returns the data and
// cache folders.
func isolate(t *testing.T) (data, cache string) {
	t.Helper()
	data, cache = t.TempDir(), t.TempDir()
	t.Setenv("OE_DATA", data)
	t.Setenv("OE_CACHE", cache)
	t.Setenv("OE_OFFLINE", "")
	wd := t.TempDir()
	t.Chdir(wd)
	if root := moduleRoot(); root != "" {
		t.Skipf("temporary folder %s lies under a go.mod (%s); cannot isolate data/", wd, root)
	}
	return data, cache
}

// server serves body at /file, answers 404 elsewhere, and counts requests.
func server(t *testing.T, body []byte) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/file" {
			http.NotFound(w, r)
			return
		}
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func sha256Hex(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
func md5Hex(b []byte) string    { s := md5.Sum(b); return hex.EncodeToString(s[:]) }

func TestDownloadCachesAndVerifies(t *testing.T) {
	body := []byte("1 2\n3 4\n")
	tests := []struct {
		name string
		sums []Checksum
		path string // URL path of the first address; a 404 there exercises the mirror
	}{
		{"sha256", []Checksum{sha256Sum(sha256Hex(body), "test")}, "/file"},
		{"md5", []Checksum{md5Sum(md5Hex(body), "test")}, "/file"},
		{"second of two checksums", []Checksum{sha256Sum(strings.Repeat("0", 64), "other copy"), md5Sum(md5Hex(body), "test")}, "/file"},
		{"mirror after 404", []Checksum{sha256Sum(sha256Hex(body), "test")}, "/gone"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, cache := isolate(t)
			srv, hits := server(t, body)
			f := File{Path: "set/points.txt", URL: srv.URL + tc.path, Mirrors: []string{srv.URL + "/file"}, Sums: tc.sums}
			p, err := obtain(f)
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(cache, "set", "points.txt"); p != want {
				t.Errorf("downloaded to %s, want %s", p, want)
			}
			if got, _ := os.ReadFile(p); string(got) != string(body) {
				t.Errorf("cached content %q, want %q", got, body)
			}
			before := hits.Load()
			if p2, err := obtain(f); err != nil || p2 != p {
				t.Errorf("second obtain: %s, %v; want the cached %s", p2, err, p)
			}
			if hits.Load() != before {
				t.Errorf("second obtain downloaded again (%d requests, then %d)", before, hits.Load())
			}
			if _, src := findFile(f, searchDirs()); src != FromCache {
				t.Errorf("found in %v, want cache", src)
			}
		})
	}
}

func TestDownloadChecksumMismatch(t *testing.T) {
	_, cache := isolate(t)
	body := []byte("tampered content\n")
	srv, _ := server(t, body)
	want := strings.Repeat("ab", 32)
	f := File{Path: "set/points.txt", URL: srv.URL + "/file", Sums: []Checksum{sha256Sum(want, "test registry")}}
	_, err := obtain(f)
	var ce *ChecksumError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v, want a *ChecksumError", err)
	}
	dest := filepath.Join(cache, "set", "points.txt")
	for _, s := range []string{dest, sha256Hex(body), want, "test registry"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %q", err, s)
		}
	}
	left, _ := os.ReadDir(filepath.Dir(dest))
	if len(left) != 0 {
		t.Errorf("files left behind after a failed download: %v", left)
	}
}

func TestOfflineMissingFile(t *testing.T) {
	data, cache := isolate(t)
	t.Setenv("OE_OFFLINE", "1")
	srv, hits := server(t, []byte("x"))
	f := File{Path: "set/points.txt", URL: srv.URL + "/file", Sums: []Checksum{sha256Sum(sha256Hex([]byte("x")), "test")}}
	_, err := obtain(f)
	if err == nil {
		t.Fatal("no error for a missing file offline")
	}
	for _, s := range []string{"set/points.txt", data, cache, srv.URL + "/file", "OE_OFFLINE"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %q", err, s)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("offline obtain made %d requests", hits.Load())
	}
}

func TestLoadMissingDataset(t *testing.T) {
	isolate(t)
	t.Setenv("OE_OFFLINE", "1")
	_, err := Load("mnist", Options{})
	if err == nil || !strings.Contains(err.Error(), "mnist/train-images-idx3-ubyte.gz not found") ||
		!strings.Contains(err.Error(), mnistURL+"train-images-idx3-ubyte.gz") {
		t.Errorf("error %v, want one naming the missing file and its URL", err)
	}
	st, err := Locate("mnist")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.Source != Missing || s.Path != "" || s.Checked {
			t.Errorf("%s: %+v, want missing and unchecked", s.File.Path, s)
		}
	}
}

func TestPresentFileWithWrongChecksum(t *testing.T) {
	data, _ := isolate(t)
	spec, _ := Lookup("aggregation")
	for _, f := range spec.Files {
		p := filepath.Join(data, filepath.FromSlash(f.Path))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("1 2\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bad := filepath.Join(data, "sipu", "aggregation.data.gz")
	_, err := Load("aggregation", Options{})
	var ce *ChecksumError
	if !errors.As(err, &ce) || ce.Path != bad {
		t.Fatalf("error %v, want a *ChecksumError for %s", err, bad)
	}
	for _, s := range []string{bad, sha256Hex([]byte("1 2\n")), spec.Files[0].Sums[0].Hex} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %q", err, s)
		}
	}
	st, err := Locate("aggregation")
	if err != nil {
		t.Fatal(err)
	}
	if st[0].Source != FromEnv || st[0].Path != bad || !st[0].Checked || st[0].OK || st[0].Err == nil {
		t.Errorf("Locate: %+v, want found in $OE_DATA with a failed check", st[0])
	}
}

func TestSearchOrder(t *testing.T) {
	data, cache := isolate(t)
	root, _ := os.Getwd()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "cmd", "tool")
	os.MkdirAll(sub, 0o755)
	t.Chdir(sub) // data/ is found by walking up to the go.mod
	local := filepath.Join(root, "data")
	f := File{Path: "set/p.txt"}
	put := func(dir string) string {
		p := filepath.Join(dir, "set", "p.txt")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
		return p
	}
	if _, src := findFile(f, searchDirs()); src != Missing {
		t.Fatalf("found in %v before any copy exists", src)
	}
	steps := []struct {
		dir  string
		want Source
	}{{cache, FromCache}, {local, FromData}, {data, FromEnv}}
	for _, s := range steps {
		p := put(s.dir)
		if got, src := findFile(f, searchDirs()); src != s.want || got != p {
			t.Errorf("after adding %s: found %s in %v, want %v", p, got, src, s.want)
		}
	}
}
