package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

// oerun eval measures what lib/metrics measures, from the files that oerun
// triplets and oerun embed write.
func TestEvalCommand(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if _, stderr, code := cli(t, "triplets", "--dataset", "gmm", "--n", "80", "--out", "t.npy", "--test-count", "500",
		"--test-out", "test.npy", "--points-out", "x.npy", "--labels-out", "y.csv", "--quiet"); code != 0 {
		t.Fatal(stderr)
	}
	if _, stderr, code := cli(t, "embed", "--triplets", "t.npy", "--epochs", "50", "--out", "e.npy", "--quiet"); code != 0 {
		t.Fatal(stderr)
	}
	// The reference values: lib/metrics on the same files.
	emb, _ := embed.ReadEmbedding("e.npy")
	x, _ := embed.ReadEmbedding("x.npy")
	y, _ := embed.ReadLabels("y.csv")
	test, err := triplets.ReadFile("test.npy", 80)
	if err != nil {
		t.Fatal(err)
	}
	wantTE := metrics.TripletError(emb, test)
	wantKNN, _ := metrics.KNNError(emb, y, 1)
	wantP, _ := metrics.Procrustes(x, emb)

	args := []string{"eval", "--embedding", "e.npy", "--triplets", "test.npy", "--labels", "y.csv", "--points", "x.npy"}
	stdout, stderr, code := cli(t, args...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, w := range []string{
		"triplet error  " + formatErr(wantTE) + "  (500 triplets of test.npy)",
		"kNN error      " + formatErr(wantKNN) + "  (k = ⌊log₂ 80⌋, 70/30 split, seed 1)",
		"procrustes     " + formatErr(wantP) + "  (against x.npy)",
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, stdout)
		}
	}
	stdout, _, code = cli(t, append(args, "--json")...)
	var got evalSummary
	if err := json.Unmarshal([]byte(stdout), &got); code != 0 || err != nil {
		t.Fatalf("--json: exit %d, %v:\n%s", code, err, stdout)
	}
	if got.Items != 80 || got.Dim != 2 || got.TestTriplets != 500 || *got.TestError != wantTE || *got.KNNError != wantKNN || math.Abs(*got.Procrustes-wantP) > 0 {
		t.Errorf("--json: %+v", got)
	}
}

func TestEvalCommandRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	if err := embed.WriteEmbedding(filepath.Join(dir, "e.csv"), uniformPoints(40)); err != nil {
		t.Fatal(err)
	}
	if err := embed.WriteEmbedding(filepath.Join(dir, "x30.csv"), uniformPoints(30)); err != nil {
		t.Fatal(err)
	}
	if err := embed.WriteLabels(filepath.Join(dir, "y30.csv"), make([]int, 30)); err != nil {
		t.Fatal(err)
	}
	writeTriplets(t, dir, "t50.csv", 50, 100)
	writeText(t, filepath.Join(dir, "nan.csv"), "1,2\nNaN,3\n3,4\n")
	writeText(t, filepath.Join(dir, "bad.csv"), "0\n1\nx\n")
	e := []string{"eval", "--embedding", "e.csv"}
	with := func(args ...string) []string { return append(append([]string{}, e...), args...) }
	checkBadInputs(t, dir, []badInput{
		{"no embedding", []string{"eval", "--triplets", "t50.csv"}, "--embedding is required", true},
		{"nothing to measure", e, "give at least one of --triplets, --dataset, --labels and --points", true},
		{"missing embedding", []string{"eval", "--embedding", "none.csv", "--labels", "y30.csv"}, "none.csv: no such file", false},
		{"NaN in the embedding", []string{"eval", "--embedding", "nan.csv", "--labels", "y30.csv"}, "nan.csv: row 2, column 1 is NaN", false},
		{"triplets over more items", with("--triplets", "t50.csv"), "t50.csv:1: file declares n=50 items, caller expects n=40", false},
		{"labels of other items", with("--labels", "y30.csv"), "y30.csv has 30 labels for the 40 items of e.csv", false},
		{"points of other items", with("--points", "x30.csv"), "x30.csv has 30 points for the 40 items of e.csv", false},
		{"labels not integers", with("--labels", "bad.csv"), `bad.csv: line 3: label "x" is not an integer`, false},
	})
}
