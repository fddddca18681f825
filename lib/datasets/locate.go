package datasets

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Source says where a file was found.
type Source int

// The places a file is looked for, in search order, and Missing.
const (
	Missing   Source = iota // found nowhere: Load downloads it
	FromEnv                 // $OE_DATA
	FromData                // data/ at the module root
	FromCache               // the download cache
)

// String names the place as oerun data prints it.
func (s Source) String() string {
	switch s {
	case FromEnv:
		return "$OE_DATA"
	case FromData:
		return "data/"
	case FromCache:
		return "cache"
	}
	return "missing"
}

// FileStatus is where one file of a dataset was found and whether it verifies.
type FileStatus struct {
	File   File
	Path   string // the file found; "" when Source is Missing
	Source Source
	// Checked is true when the checksum was computed (Locate does, Find does
	// not); OK then says whether it matched, and Err says why not.
	Checked bool
	OK      bool
	Err     error
}

// Locate finds every file of the named dataset and verifies the checksum of
// each file found. Missing files are reported, not downloaded; synthetic sets
// have no files.
func Locate(name string) ([]FileStatus, error) { return locate(name, true) }

// Find is Locate without hashing: it only says where each file is.
func Find(name string) ([]FileStatus, error) { return locate(name, false) }

func locate(name string, verify bool) ([]FileStatus, error) {
	spec, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	dirs := searchDirs()
	out := make([]FileStatus, len(spec.Files))
	for i, f := range spec.Files {
		st := FileStatus{File: f}
		st.Path, st.Source = findFile(f, dirs)
		if verify && st.Source != Missing {
			st.Checked = true
			st.Err = verifyFile(st.Path, f)
			st.OK = st.Err == nil
		}
		out[i] = st
	}
	return out, nil
}

// searchDir is one folder that may hold dataset files.
type searchDir struct {
	dir    string
	source Source
}

// searchDirs lists the folders to look in, in order; unset or undeterminable
// places are left out.
func searchDirs() []searchDir {
	var dirs []searchDir
	if d := os.Getenv("OE_DATA"); d != "" {
		dirs = append(dirs, searchDir{d, FromEnv})
	}
	if root := moduleRoot(); root != "" {
		dirs = append(dirs, searchDir{filepath.Join(root, "data"), FromData})
	}
	if c, err := cacheDir(); err == nil {
		dirs = append(dirs, searchDir{c, FromCache})
	}
	return dirs
}

func findFile(f File, dirs []searchDir) (string, Source) {
	for _, d := range dirs {
		p := filepath.Join(d.dir, filepath.FromSlash(f.Path))
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return p, d.source
		}
	}
	return "", Missing
}

// moduleRoot is the nearest directory at or above the working directory that
// holds a go.mod file, or "" when there is none. Walking up lets tests (run
// in their package directory) and the command (run anywhere in the checkout)
// share the one data/ folder.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// cacheDir is $OE_CACHE, or the "oe" folder of the user's cache directory.
func cacheDir() (string, error) {
	if d := os.Getenv("OE_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("datasets: no cache directory (set OE_CACHE): %w", err)
	}
	return filepath.Join(d, "oe"), nil
}

// offline reports whether OE_OFFLINE forbids downloads.
func offline() bool {
	v := os.Getenv("OE_OFFLINE")
	return v != "" && v != "0"
}

// obtain returns the path of a verified copy of f (see obtainAll).
func obtain(f File) (string, error) {
	paths, err := obtainAll([]File{f})
	if err != nil {
		return "", err
	}
	return paths[0], nil
}

// obtainAll returns the paths of verified copies of files, in order: for
// each, the first copy found in the search folders, or else a fresh
// download into the cache, from its URL or, for a file that names a Member,
// extracted from the archive at its URL, which is downloaded once for all
// the files it holds. A copy that is found but fails its checksum is an
// error, not a reason to download.
func obtainAll(files []File) ([]string, error) {
	dirs := searchDirs()
	paths := make([]string, len(files))
	var missing []int
	for i, f := range files {
		p, src := findFile(f, dirs)
		if src == Missing {
			missing = append(missing, i)
			continue
		}
		if err := verifyFile(p, f); err != nil {
			return nil, err
		}
		paths[i] = p
	}
	if len(missing) == 0 {
		return paths, nil
	}
	looked := make([]string, len(dirs))
	for i, d := range dirs {
		looked[i] = fmt.Sprintf("%s (%s)", d.source, d.dir)
	}
	where := strings.Join(looked, ", ")
	if where == "" {
		where = "no folder ($OE_DATA unset, no module root, no cache directory)"
	}
	if offline() {
		f := files[missing[0]]
		return nil, fmt.Errorf("datasets: %s not found in %s; OE_OFFLINE is set, so it was not downloaded from %s",
			f.Path, where, f.URL)
	}
	cache, err := cacheDir()
	if err != nil {
		return nil, err
	}
	archives := map[string][]int{} // archive URL → the missing files it holds
	var order []string
	for _, i := range missing {
		f := files[i]
		paths[i] = filepath.Join(cache, filepath.FromSlash(f.Path))
		if f.Member != "" {
			if archives[f.URL] == nil {
				order = append(order, f.URL)
			}
			archives[f.URL] = append(archives[f.URL], i)
			continue
		}
		if err := fetch(f, paths[i]); err != nil {
			return nil, fmt.Errorf("datasets: %s not found in %s, and downloading it failed: %w", f.Path, where, err)
		}
	}
	for _, url := range order {
		held := archives[url]
		members := make([]File, len(held))
		dests := make([]string, len(held))
		for k, i := range held {
			members[k], dests[k] = files[i], paths[i]
		}
		if err := extract(url, members, dests); err != nil {
			return nil, fmt.Errorf("datasets: %s not found in %s, and extracting it from %s failed: %w", members[0].Path, where, url, err)
		}
	}
	return paths, nil
}
