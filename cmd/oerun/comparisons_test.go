package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

// tones are the items of the test responses: shades on a line, named.
var tones = []string{"black", "charcoal", "slate", "grey", "silver", "mist", "ivory", "white", "snow", "pearl", "\"off\" white", "ash, light"}

// writeResponses writes people's answers about the tones to path: 150
// queries (head, left, right), each answered three times, the nearer
// candidate chosen except in one answer of every fifth query.
func writeResponses(t *testing.T, path string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(4, 5))
	var b strings.Builder
	b.WriteString("worker,head,left,right,answer\n")
	asked := map[[3]int]bool{}
	for q := 0; q < 150; q++ {
		p := rng.Perm(len(tones))
		h, l, r := p[0], p[1], p[2]
		key := [3]int{h, min(l, r), max(l, r)}
		if asked[key] { // a query asked before: draw another
			q--
			continue
		}
		asked[key] = true
		near := l
		if abs(r-h) < abs(l-h) {
			near = r
		}
		for a := 0; a < 3; a++ {
			chosen := near
			if a == 2 && q%5 == 0 {
				chosen = l + r - near
			}
			answer := quoteField(tones[chosen])
			if a == 1 { // the side instead of the name
				answer = map[bool]string{true: "left", false: "right"}[chosen == l]
			}
			fmt.Fprintf(&b, "w%d,%s,%s,%s,%s\n", a, quoteField(tones[h]), quoteField(tones[l]), quoteField(tones[r]), answer)
		}
	}
	writeText(t, path, b.String())
}

func abs(v int) int { return max(v, -v) }

// quoteField quotes a CSV field as RFC 4180 does.
func quoteField(s string) string {
	if strings.ContainsAny(s, ",\"") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// TestNamedWorkflow follows the README's "Your own comparisons": a
// responses file is split by query, embedded with names, and the held-out
// answers scored by name, the same by oerun embed --test and oerun eval.
func TestNamedWorkflow(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeResponses(t, "answers.csv")
	if _, stderr, code := cli(t, "triplets", "split", "--test-fraction", "0.2", "--seed", "3", "answers.csv", "--out", "train.csv", "--test-out", "test.csv", "--quiet"); code != 0 {
		t.Fatal(stderr)
	}
	all, form, err := triplets.ReadFileWith("answers.csv", triplets.ReadOptions{})
	if err != nil || form != triplets.FormResponses {
		t.Fatalf("answers.csv: %v, %v", form, err)
	}
	train, trainForm, err1 := triplets.ReadFileWith("train.csv", triplets.ReadOptions{})
	test, testForm, err2 := triplets.ReadFileWith("test.csv", triplets.ReadOptions{})
	if err1 != nil || err2 != nil || trainForm != triplets.FormResponses || testForm != triplets.FormResponses {
		t.Fatalf("split outputs: %v %v, %v %v; want responses", trainForm, err1, testForm, err2)
	}
	if train.Len()+test.Len() != all.Len() || len(triplets.Tallies(test)) != 30 {
		t.Errorf("split %d answers into %d + %d, %d test queries; want all of them, 30 test queries", all.Len(), train.Len(), test.Len(), len(triplets.Tallies(test)))
	}

	for _, out := range []string{"emb.csv", "emb.npy"} {
		stdout, stderr, code := cli(t, "embed", "--algorithm", "ste", "--triplets", "train.csv", "--test", "test.csv", "--out", out, "--json", "--quiet")
		if code != 0 {
			t.Fatal(stderr)
		}
		var sum embedSummary
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
			t.Fatal(err)
		}
		emb, names, err := embed.ReadNamedEmbedding(out)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(names, train.Names) {
			t.Errorf("%s names its rows %q, want the training file's %q", out, names, train.Names)
		}
		onEmb, err := test.Renumber(names)
		if err != nil {
			t.Fatal(err)
		}
		wantTE, wantMaj := metrics.TripletError(emb, onEmb), metrics.MajorityError(emb, onEmb)
		if sum.TestError == nil || *sum.TestError != wantTE || sum.MajorityTestError == nil || *sum.MajorityTestError != wantMaj || sum.TestQueries != 30 {
			t.Errorf("embed --json: test error %v, majority %v over %d queries; want %v, %v over 30", sum.TestError, sum.MajorityTestError, sum.TestQueries, wantTE, wantMaj)
		}
		if wantMaj > 0.2 {
			t.Errorf("majority error %v: the tones lie on a line, STE should place them", wantMaj)
		}
		stdout, stderr, code = cli(t, "eval", "--embedding", out, "--triplets", "test.csv", "--json")
		var ev evalSummary
		if code != 0 || json.Unmarshal([]byte(stdout), &ev) != nil {
			t.Fatalf("eval: exit %d %s", code, stderr)
		}
		if *ev.TestError != wantTE || *ev.MajorityTestError != wantMaj {
			t.Errorf("eval: %v, %v; embed said %v, %v", *ev.TestError, *ev.MajorityTestError, wantTE, wantMaj)
		}
	}
	// Other column names, by --columns.
	text, _ := os.ReadFile("test.csv")
	writeText(t, "renamed.csv", strings.Replace(string(text), "head,left,right,answer", "ref,a,b,choice", 1))
	stdout, stderr, code := cli(t, "eval", "--embedding", "emb.csv", "--triplets", "renamed.csv", "--columns", "ref,a,b,choice")
	if code != 0 || !strings.Contains(stdout, "majority ") {
		t.Errorf("eval with --columns: exit %d, %s%s", code, stdout, stderr)
	}
}

// TestCVCommand cross-validates on a responses file: a table of every
// method and d, the same whatever the number of threads.
func TestCVCommand(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeResponses(t, "answers.csv")
	var runs [2]cvSummary
	for i, threads := range []string{"1", "2"} {
		stdout, stderr, code := cli(t, "cv", "--algorithm", "soe,ste", "--dims", "2,1", "--folds", "3", "--threads", threads, "--json", "--quiet", "answers.csv")
		if code != 0 || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		if err := json.Unmarshal([]byte(stdout), &runs[i]); err != nil {
			t.Fatal(err)
		}
	}
	got := runs[0]
	if got.Triplets != 450 || got.Queries != 150 || got.Folds != 3 || got.By != "query" || len(got.Cells) != 4 || len(got.Choices) != 2 {
		t.Fatalf("summary %+v", got)
	}
	for c, cell := range got.Cells {
		want := []int{1, 2}[c%2]
		if cell.Dim != want || len(cell.Errors) != 3 || !slices.Equal(cell.Errors, runs[1].Cells[c].Errors) {
			t.Errorf("cell %d: d=%d, folds %v (on two threads %v); want d=%d, equal", c, cell.Dim, cell.Errors, runs[1].Cells[c].Errors, want)
		}
	}
	stdout, _, code := cli(t, "cv", "--algorithm", "soe,cklx:init=1", "--dims", "1,2", "--folds", "3", "--quiet", "answers.csv")
	if code != 0 || !strings.Contains(stdout, "held-out triplet error, 3 folds by query (seed 1), 450 triplets (150 queries) of answers.csv") ||
		!strings.Contains(stdout, "best") || !strings.Contains(stdout, "smallest within 1 SE") || !strings.Contains(stdout, "\ncklx:init=1    2  ") {
		t.Errorf("table:\n%s", stdout)
	}
}

// TestComparisonsBadInput checks issue #20's bad input on the command line:
// one error line naming the file, line and value, exit status 1, nothing
// written.
func TestComparisonsBadInput(t *testing.T) {
	dir := t.TempDir()
	resp := "head,left,right,answer\n"
	writeText(t, filepath.Join(dir, "neither.csv"), resp+"silk,wool,steel,wool\nsilk,wool,steel,felt\n")
	writeText(t, filepath.Join(dir, "repeat.csv"), "silk,wool,steel\nwool,silk,wool\n")
	writeText(t, filepath.Join(dir, "empty.csv"), "silk,,steel\n")
	writeText(t, filepath.Join(dir, "mixed.csv"), "silk,wool,steel\n0,1,2\n")
	writeText(t, filepath.Join(dir, "few.csv"), "a,b,c\na,c,b\nb,a,c\n")
	writeText(t, filepath.Join(dir, "named.csv"), "a,b,c\nb,c,a\nc,a,b\n")
	writeText(t, filepath.Join(dir, "other.csv"), "a,b,zinc\n")
	writeText(t, filepath.Join(dir, "e.csv"), "name,x1\na,0\nb,1\nc,2\n")
	if err := embed.WriteEmbedding(filepath.Join(dir, "plain.npy"), uniformPoints(3)); err != nil {
		t.Fatal(err)
	}
	if err := embed.WriteEmbedding(filepath.Join(dir, "side.npy"), uniformPoints(3)); err != nil {
		t.Fatal(err)
	}
	writeText(t, filepath.Join(dir, "side.names.txt"), "a\nb\n")
	split := func(args ...string) []string { return append([]string{"triplets", "split"}, args...) }
	checkBadInputs(t, dir, []badInput{
		{"answer neither candidate", []string{"embed", "--triplets", "neither.csv", "--out", "o.csv"},
			`neither.csv:3: field 4 (answer): answer "felt" is neither candidate (left "wool", right "steel") nor the word left or right`, false},
		{"triplet repeats an item", []string{"embed", "--triplets", "repeat.csv", "--out", "o.csv"}, "repeat.csv:2: items (wool, silk, wool) are not distinct", false},
		{"empty name", []string{"cv", "empty.csv"}, "empty.csv:1: field 2: empty item: neither a name nor a number", false},
		{"named and numeric mixed", split("mixed.csv", "--out", "a.csv", "--test-out", "b.csv"), `mixed.csv:2: field 1: "0" is a number, but line 1 names its items`, false},
		{"more folds than queries", []string{"cv", "--folds", "3", "--quiet", "few.csv"}, "few.csv: crossval: triplets: 3 folds of 2 queries: want 2 to 2 folds", false},
		{"sidecar does not match", []string{"eval", "--embedding", "side.npy", "--triplets", "named.csv"}, "side.names.txt: 2 names for the 3 rows of side.npy", false},
		{"unknown name", []string{"eval", "--embedding", "e.csv", "--triplets", "other.csv"}, `other.csv: item "zinc" is not among the 3 names of e.csv`, false},
		{"named test, unnamed embedding", []string{"eval", "--embedding", "plain.npy", "--triplets", "named.csv"}, "named.csv names its items, but plain.npy has no names", false},
		{"split: named to .npy", split("named.csv", "--out", "a.npy", "--test-out", "b.csv"), `--out a.npy: unknown extension ".npy" (want .csv, .txt)`, true},
		{"split: fraction", split("--test-fraction", "1", "named.csv", "--out", "a.csv", "--test-out", "b.csv"), "--test-fraction must lie in (0, 1), got 1", true},
		{"split: by", split("--by", "item", "named.csv", "--out", "a.csv", "--test-out", "b.csv"), "--by item: want query or triplet", true},
		{"split: two inputs", split("named.csv", "few.csv", "--out", "a.csv", "--test-out", "b.csv"), "give one input file, got 2", true},
		{"split: test side empty", split("--test-fraction", "0.1", "few.csv", "--out", "a.csv", "--test-out", "b.csv"), "few.csv: triplets: a test fraction of 0.1 of 2 queries leaves the test side empty", false},
		{"cv: no input", []string{"cv"}, "give a triplet file or --dataset, one of them", true},
		{"cv: dataset of points", []string{"cv", "--dataset", "char"}, "--dataset char: cv takes a dataset of comparisons", true},
		{"cv: bad dims", []string{"cv", "--dims", "1,two", "few.csv"}, `--dims 1,two: "two" is not an integer`, true},
		{"cv: active method", []string{"cv", "--algorithm", "soe,loe", "few.csv"}, "crossval: loe is an active method", false},
		{"cv: method's parameter", []string{"cv", "--algorithm", "soe,cklx:init", "few.csv"}, `--algorithm: embed: method "cklx:init": want name:param=value, got "init"`, true},
		{"cv: parameter's value", []string{"cv", "--algorithm", "cklx:init=2", "--quiet", "named.csv"}, "cklx: init must be 0 (random) or 1 (SOE's embedding), got 2", false},
		{"eval: dataset of points", []string{"eval", "--embedding", "e.csv", "--dataset", "char"}, "--dataset char: eval scores against a dataset of comparisons", true},
		{"embed: material with --lambda", []string{"embed", "--dataset", "material", "--lambda", "3", "--out", "o.csv"},
			"--lambda does not apply to material, a dataset of comparisons", true},
		{"embed: material with --test", []string{"embed", "--dataset", "material", "--test", "named.csv", "--out", "o.csv"}, "--test does not apply to material", true},
		{"embed: active method on material", []string{"embed", "--dataset", "material", "--algorithm", "loe", "--out", "o.csv"}, "loe is an active method: it asks about points", true},
		{"triplets: material with --count", []string{"triplets", "--dataset", "material", "--count", "5", "--out", "o.csv"}, "--count does not apply to material", true},
		{"triplets: material to .npy", []string{"triplets", "--dataset", "material", "--out", "o.npy"}, `--out o.npy: unknown extension ".npy" (want .csv, .txt)`, true},
	})
}

// TestMaterialCommands runs the material data through the commands where
// its files are present: its answers written named, an embedding scored on
// its test answers by eval as by embed, with the authors' measure.
func TestMaterialCommands(t *testing.T) {
	t.Setenv("OE_OFFLINE", "1")
	c, err := datasets.LoadComparisons("material")
	if err != nil {
		t.Skipf("material data not available: %v", err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if _, stderr, code := cli(t, "triplets", "--dataset", "material", "--out", "train.csv", "--test-out", "test.csv", "--quiet"); code != 0 {
		t.Fatal(stderr)
	}
	train, err1 := triplets.ReadFile("train.csv", 0)
	test, err2 := triplets.ReadFile("test.csv", 0)
	if err1 != nil || err2 != nil || train.Len() != 92892 || test.Len() != 11800 || !slices.Equal(train.Names, c.Names) {
		t.Fatalf("written answers: %v %v, %d + %d triplets", err1, err2, train.Len(), test.Len())
	}
	stdout, stderr, code := cli(t, "embed", "--dataset", "material", "--algorithm", "soe", "--out", "m.npy", "--json", "--quiet")
	var sum embedSummary
	if code != 0 || json.Unmarshal([]byte(stdout), &sum) != nil {
		t.Fatalf("embed: exit %d %s", code, stderr)
	}
	if sum.Items != 100 || sum.Triplets != 92892 || sum.TestQueries != 2738 || sum.MajorityTestError == nil {
		t.Fatalf("embed --json: %+v", sum)
	}
	for _, args := range [][]string{{"--dataset", "material"}, {"--triplets", "test.csv"}} {
		stdout, stderr, code := cli(t, append([]string{"eval", "--embedding", "m.npy", "--json"}, args...)...)
		var ev evalSummary
		if code != 0 || json.Unmarshal([]byte(stdout), &ev) != nil {
			t.Fatalf("eval %v: exit %d %s", args, code, stderr)
		}
		if *ev.MajorityTestError != *sum.MajorityTestError || ev.TestQueries != 2738 || *ev.TestError != *sum.TestError {
			t.Errorf("eval %v: majority %v over %d, test error %v; embed said %v, %v", args, *ev.MajorityTestError, ev.TestQueries, *ev.TestError, *sum.MajorityTestError, *sum.TestError)
		}
	}
}

// TestMapCommand draws named and unnamed embeddings in 1, 2 and 3
// dimensions, and rejects bad input writing nothing.
func TestMapCommand(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeText(t, "named.csv", "name,x1,x2\nsilk,0,1\nsteel,2,0.5\n\"red, dark\",1,1\n")
	writeText(t, "line.csv", "name,x1\na,0\nb,1\nc,3\n")
	if err := embed.WriteEmbedding("plain.npy", uniformPoints(30)); err != nil {
		t.Fatal(err)
	}
	writeText(t, "three.csv", "1,2,3\n4,5,7\n0,1,1\n2,2,9\n")
	for _, args := range [][]string{
		{"--embedding", "named.csv", "--out", "named.png"},
		{"--embedding", "line.csv", "--out", "line.svg", "--title", "a line"},
		{"--embedding", "plain.npy", "--out", "plain.png"},
		{"--embedding", "three.csv", "--out", "three.png"},
	} {
		if _, stderr, code := cli(t, append([]string{"map", "--quiet"}, args...)...); code != 0 {
			t.Fatalf("map %v: %s", args, stderr)
		}
		if st, err := os.Stat(args[3]); err != nil || st.Size() == 0 {
			t.Errorf("map %v wrote no picture: %v", args, err)
		}
	}
	writeText(t, "y.csv", "0\n1\n0\n")
	checkBadInputs(t, dir, []badInput{
		{"no output", []string{"map", "--embedding", "named.csv"}, "--embedding and --out are required", true},
		{"format", []string{"map", "--embedding", "named.csv", "--out", "m.jpg"}, `--out m.jpg: unknown extension ".jpg" (want .png, .svg)`, true},
		{"labels of a named embedding", []string{"map", "--embedding", "named.csv", "--labels", "y.csv", "--out", "m.png"}, "--labels colours an embedding without names", true},
		{"missing embedding", []string{"map", "--embedding", "none.csv", "--out", "m.png"}, "none.csv: no such file", false},
	})
}
