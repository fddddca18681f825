package datasets

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/oe-lab/oe/lib/triplets"
)

// tinyAnswers is a file in the authors' format over 4 items: a 3–1 query,
// a 2–2 tie and a 1–0 query.
const tinyAnswers = `{"answers": [[0, 1, 2], [3, 2, 1], [1, 0, 3]],
 "agreement": [[3, 1], [2, 2], [1, 0]],
 "answers_diff": [[0, 1, 2], [1, 0, 3]], "agreement_diff": [[3, 1], [1, 0]],
 "answers_equal": [[3, 2, 1]], "agreement_equal": [[2, 2]]}`

// tarGz builds a .tar.gz of a repository snapshot: the files under one top
// folder, as GitHub's archives are.
func tarGz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	tw := tar.NewWriter(z)
	tw.WriteHeader(&tar.Header{Name: "repo-e5fccab/", Typeflag: tar.TypeDir, Mode: 0o755})
	for _, name := range slices.Sorted(maps.Keys(files)) {
		body := files[name]
		if err := tw.WriteHeader(&tar.Header{Name: "repo-e5fccab/" + name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	z.Close()
	return b.Bytes()
}

// archiveFiles are the files of a material-like dataset extracted from an
// archive served at url, with the checksums of their content.
func archiveFiles(url, train, test, names string) []File {
	return []File{
		{Path: "crowd/tiny/train.json.gz", URL: url, Member: "data/train.json", Sums: []Checksum{sha256Sum(sha256Hex([]byte(train)), "test")}},
		{Path: "crowd/tiny/test.json.gz", URL: url, Member: "data/test.json", Sums: []Checksum{sha256Sum(sha256Hex([]byte(test)), "test")}},
		{Path: "crowd/tiny/names.txt", URL: url, Member: "data/img/*.jpg", Sums: []Checksum{sha256Sum(sha256Hex([]byte(names)), "test")}},
	}
}

// TestArchiveDownload downloads a small archive the test writes: the
// JSON files and the image list are extracted once, verified by the
// checksum of their content, cached (the JSON gzip-compressed) and loaded.
func TestArchiveDownload(t *testing.T) {
	_, cache := isolate(t)
	archive := tarGz(t, map[string]string{
		"data/train.json":        tinyAnswers,
		"data/test.json":         tinyAnswers,
		"data/img/steel.jpg":     "jpeg",
		"data/img/Brass.jpg":     "jpeg",
		"data/img/wool.jpg":      "jpeg",
		"data/img/silk.jpg":      "jpeg",
		"data/img/notes.txt":     "not an image",
		"data/img/sub/extra.jpg": "another folder",
		"README.md":              "readme",
	})
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write(archive)
	}))
	t.Cleanup(srv.Close)
	files := archiveFiles(srv.URL+"/snapshot.tar.gz", tinyAnswers, tinyAnswers, "Brass\nsilk\nsteel\nwool\n")
	paths, err := obtainAll(files)
	if err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 1 {
		t.Errorf("%d downloads for three files of one archive, want 1", hits.Load())
	}
	for i, f := range files {
		if want := filepath.Join(cache, filepath.FromSlash(f.Path)); paths[i] != want {
			t.Errorf("%s extracted to %s, want %s", f.Member, paths[i], want)
		}
	}
	if raw, _ := os.ReadFile(paths[0]); len(raw) < 2 || raw[0] != 0x1f || raw[1] != 0x8b {
		t.Errorf("%s is not gzip-compressed", paths[0])
	}
	if again, err := obtainAll(files); err != nil || !slices.Equal(again, paths) || hits.Load() != 1 {
		t.Errorf("second obtain: %v, %v after %d downloads; want the cached copies", again, err, hits.Load())
	}
	c, err := loadMaterial(paths)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Names, []string{"Brass", "silk", "steel", "wool"}) {
		t.Errorf("names %q", c.Names)
	}
	want := []Answered{{0, 1, 2, 3, 1}, {3, 2, 1, 2, 2}, {1, 0, 3, 1, 0}}
	if !slices.Equal(c.Train, want) || !slices.Equal(c.Test, want) {
		t.Errorf("answers %v / %v, want %v", c.Train, c.Test, want)
	}
}

func TestArchiveErrors(t *testing.T) {
	good := tarGz(t, map[string]string{"data/train.json": tinyAnswers, "data/test.json": tinyAnswers, "data/img/a.jpg": "x",
		"data/img/b.jpg": "x", "data/img/c.jpg": "x", "data/img/d.jpg": "x"})
	for _, tc := range []struct {
		name    string
		body    []byte
		names   string // the list the checksum expects
		want    string
		wantSum bool // a *ChecksumError
	}{
		{"wrong checksum", good, "a\nb\nc\n", "checksum mismatch for", true},
		{"member missing", tarGz(t, map[string]string{"data/train.json": tinyAnswers}), "a\nb\nc\nd\n", "the archive holds no data/test.json", false},
		{"no images", tarGz(t, map[string]string{"data/train.json": tinyAnswers, "data/test.json": tinyAnswers}), "a\n", "the archive holds no data/img/*.jpg", false},
		{"not an archive", []byte("<html>rate limited</html>"), "a\n", "not a .tar.gz archive", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, cache := isolate(t)
			srv, _ := server(t, tc.body)
			files := archiveFiles(srv.URL+"/file", tinyAnswers, tinyAnswers, tc.names)
			_, err := obtainAll(files)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "crowd/tiny/") {
				t.Errorf("error %v, want it to name the file and contain %q", err, tc.want)
			}
			var ce *ChecksumError
			if errors.As(err, &ce) != tc.wantSum {
				t.Errorf("error %v: a checksum error: %v, want %v", err, !tc.wantSum, tc.wantSum)
			}
			if left, _ := os.ReadDir(filepath.Join(cache, "crowd", "tiny")); len(left) != 0 {
				t.Errorf("files left behind: %v", left)
			}
		})
	}
}

// TestReadAnswersErrors feeds files that are not in the authors' format:
// each error names the file and the key.
func TestReadAnswersErrors(t *testing.T) {
	for _, tc := range []struct{ name, json, want string }{
		{"not JSON", "answers: 1", "want a JSON object with the keys answers, agreement"},
		{"a list", "[[0, 1, 2]]", "want a JSON object"},
		{"key missing", `{"answers": [[0, 1, 2]], "agreement": [[1, 0]]}`, `key "answers_diff" missing`},
		{"unknown key", strings.Replace(tinyAnswers, `"answers_equal"`, `"answers_same"`, 1), `unexpected key "answers_same"`},
		{"not integers", strings.Replace(tinyAnswers, "[[3, 1], [2, 2]", "[[3, 1.5], [2, 2]", 1), `key "agreement": want a list of lists of integers`},
		{"lengths differ", strings.Replace(tinyAnswers, ", [1, 0]],\n \"answers_diff\"", "],\n \"answers_diff\"", 1), `key "agreement": 2 entries for the 3 of "answers"`},
		{"two items", strings.Replace(tinyAnswers, "[[0, 1, 2], [3, 2, 1]", "[[0, 1], [3, 2, 1]", 1), `key "answers", entry 0: [0 1] is not a query [ref, a, b] of three different items`},
		{"repeated item", strings.Replace(tinyAnswers, "[[0, 1, 2], [3, 2, 1]", "[[0, 1, 0], [3, 2, 1]", 1), `key "answers", entry 0: [0 1 0]`},
		{"item out of range", strings.Replace(tinyAnswers, "[1, 0, 3]],\n \"agreement\"", "[1, 0, 4]],\n \"agreement\"", 1), `key "answers", entry 2: item 4 out of range [0, 4)`},
		{"minority first", strings.Replace(tinyAnswers, "[[3, 1], [2, 2]", "[[1, 3], [2, 2]", 1), `key "agreement", entry 0: [1 3] is not [votes for a, votes for b] with the majority first`},
		{"no votes", strings.Replace(tinyAnswers, "[2, 2], [1, 0]]", "[2, 2], [0, 0]]", 1), `key "agreement", entry 2: [0 0] is not [votes for a, votes for b]`},
		{"diff list wrong", strings.Replace(tinyAnswers, `"answers_diff": [[0, 1, 2], [1, 0, 3]]`, `"answers_diff": [[0, 1, 2]]`, 1), `key "answers_diff": does not list the queries of "answers" without a tie`},
		{"equal list wrong", strings.Replace(tinyAnswers, `"agreement_equal": [[2, 2]]`, `"agreement_equal": []`, 1), `key "agreement_equal": does not list the queries of "answers" with a tie`},
		{"trailing data", tinyAnswers + " {}", "data after the JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "answers.json")
			if err := os.WriteFile(path, []byte(tc.json), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := readAnswers(path, 4)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) ||
				!strings.Contains(err.Error(), "not the authors' answers_processed format") {
				t.Errorf("error %v, want it to name %s and contain %q", err, path, tc.want)
			}
		})
	}
}

func TestVotes(t *testing.T) {
	c := &Comparisons{Names: []string{"a", "b", "c", "d"}}
	answers := []Answered{{0, 1, 2, 2, 1}, {3, 2, 1, 1, 1}}
	for _, tc := range []struct {
		votes Votes
		want  []int32
	}{
		// By hand from issue #20: [x, y] gives x × (ref, a, b), y × (ref, b, a).
		{EachVote, []int32{0, 1, 2, 0, 1, 2, 0, 2, 1, 3, 2, 1, 3, 1, 2}},
		// cblearn's list-order: every vote as listed.
		{MajorityVote, []int32{0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 2, 1, 3, 2, 1}},
	} {
		s := c.Triplets(answers, tc.votes)
		if !slices.Equal(s.Idx, tc.want) || s.N != 4 || !slices.Equal(s.Names, c.Names) {
			t.Errorf("%v: %v over %d items %q, want %v", tc.votes, s.Idx, s.N, s.Names, tc.want)
		}
	}
}

func TestKindMismatch(t *testing.T) {
	if _, err := Load("material", Options{}); err == nil || !strings.Contains(err.Error(), "material is a dataset of comparisons, not points: load it with LoadComparisons") {
		t.Errorf("Load(material): %v", err)
	}
	if _, err := LoadComparisons("char"); err == nil || !strings.Contains(err.Error(), "char is a dataset of points, not comparisons") {
		t.Errorf("LoadComparisons(char): %v", err)
	}
}

// TestMaterialReal loads the material data where its files are present
// and checks it against the shared data's MANIFEST.md: 100 materials,
// 22,801 + 3,000 queries, 92,892 training votes, and a test set whose
// untied majority answers are the authors' answers_diff.
func TestMaterialReal(t *testing.T) {
	t.Setenv("OE_OFFLINE", "1")
	st, err := Find("material")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.Source == Missing {
			t.Skipf("absent: %s is in none of $OE_DATA, data/ or the cache", s.File.Path)
		}
	}
	c, err := LoadComparisons("material")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Names) != 100 || len(c.Train) != 22801 || len(c.Test) != 3000 || c.Names[0] != "alum-bronze" {
		t.Errorf("%d names (first %q), %d + %d queries; want 100 (alum-bronze), 22801 + 3000", len(c.Names), c.Names[0], len(c.Train), len(c.Test))
	}
	for _, v := range []Votes{EachVote, MajorityVote} {
		if s := c.Triplets(c.Train, v); s.Len() != 92892 || s.Validate() != nil {
			t.Errorf("%v: %d training triplets (%v), want 92892", v, s.Len(), s.Validate())
		}
	}
	var untied, majority []int32
	for _, a := range c.Test {
		if a.ForA != a.ForB {
			untied = append(untied, a.Ref, a.A, a.B)
		}
	}
	for _, q := range triplets.Tallies(c.Triplets(c.Test, EachVote)) {
		if i, j, k, ok := q.Majority(); ok {
			majority = append(majority, i, j, k)
		}
	}
	if len(untied) != 3*2738 || !slices.Equal(majority, untied) {
		t.Errorf("%d untied test queries; their majority triplets equal answers_diff: %v", len(untied)/3, slices.Equal(majority, untied))
	}
}
