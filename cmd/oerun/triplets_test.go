package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

func TestTripletsCommand(t *testing.T) {
	dir := t.TempDir()
	uniform, err := datasets.Load("uniform", datasets.Options{N: 200, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		args      []string
		file      string
		wantM     int
		wantError float64 // fraction of triplets the true points violate; -1: only check it is in (0, 0.5)
	}{
		{"λ rule, CSV", []string{"--n", "200", "--seed", "3"}, "a.csv", triplets.Count(2, 200, 2), 0},
		{"λ and d, NPY", []string{"--n", "200", "--seed", "3", "--lambda", "0.5", "--dim", "3"}, "b.npy", triplets.Count(0.5, 200, 3), 0},
		{"count", []string{"--n", "200", "--seed", "3", "--count", "1234"}, "c.csv", 1234, 0},
		{"bernoulli noise", []string{"--n", "200", "--seed", "3", "--count", "20000", "--noise", "bernoulli", "--level", "0.2"}, "d.npy", 20000, -1},
		{"gaussian noise", []string{"--n", "200", "--seed", "3", "--count", "20000", "--noise", "gaussian", "--level", "1"}, "e.csv", 20000, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.file)
			args := append([]string{"--dataset", "uniform", "--out", out, "--quiet"}, tc.args...)
			if err := tripletsCommand(args); err != nil {
				t.Fatal(err)
			}
			s, err := triplets.ReadFile(out, 200)
			if err != nil {
				t.Fatal(err)
			}
			if s.Len() != tc.wantM {
				t.Errorf("wrote %d triplets, want %d", s.Len(), tc.wantM)
			}
			e := metrics.TripletError(uniform.X, s)
			switch {
			case tc.wantError >= 0 && e != tc.wantError:
				t.Errorf("the dataset's points violate %v of the triplets, want %v", e, tc.wantError)
			case tc.wantError < 0 && (e <= 0.05 || e >= 0.5):
				t.Errorf("noisy triplets: the dataset's points violate %v of them, want clearly between 0 and 0.5", e)
			}
		})
	}
}

func TestTripletsCommandDeterministic(t *testing.T) {
	dir := t.TempDir()
	var files [3][]byte
	for r, threads := range []string{"1", "2", "2"} {
		out := filepath.Join(dir, "t"+threads+".npy")
		err := tripletsCommand([]string{"--dataset", "uniform", "--n", "300", "--count", "100000",
			"--noise", "gaussian", "--level", "0.5", "--seed", "9", "--threads", threads, "--out", out, "--quiet"})
		if err != nil {
			t.Fatal(err)
		}
		if files[r], err = os.ReadFile(out); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(files[0], files[1]) || !bytes.Equal(files[1], files[2]) {
		t.Error("same seed, different files (threads 1 vs 2, or a repeated run)")
	}
}

// Test triplets, points and labels come with the triplets: over the same
// items, which the points reproduce and the labels classify.
func TestTripletsCommandOutputs(t *testing.T) {
	dir := t.TempDir()
	trips, test := filepath.Join(dir, "t.npy"), filepath.Join(dir, "test.csv")
	points, labels := filepath.Join(dir, "x.npy"), filepath.Join(dir, "y.npy")
	stdout, stderr, code := cli(t, "triplets", "--dataset", "gmm", "--n", "100", "--seed", "2", "--out", trips,
		"--test-count", "1000", "--test-out", test, "--points-out", points, "--labels-out", labels)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, w := range []string{"wrote 2658 triplets" /* ⌈2·100·2·log₂ 100⌉ */, "wrote 1000 noiseless test triplets over the same items to " + test,
		"wrote the items' points to " + points, "wrote the items' labels to " + labels} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	gmm, err := datasets.Load("gmm", datasets.Options{N: 100, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	x, err := embed.ReadEmbedding(points)
	if err != nil || !mat.Equal(x, gmm.X) {
		t.Errorf("points file differs from the dataset's items (%v)", err)
	}
	y, err := embed.ReadLabels(labels)
	if err != nil || !slices.Equal(y, gmm.Labels) {
		t.Errorf("labels file differs from the dataset's labels (%v)", err)
	}
	train, err := triplets.ReadFile(trips, 100)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := triplets.ReadFile(test, 100)
	if err != nil {
		t.Fatal(err)
	}
	// Fresh, noiseless triplets: the true points violate none, and they are
	// not the first training triplets again.
	if ts.Len() != 1000 || metrics.TripletError(gmm.X, ts) != 0 || slices.Equal(ts.Idx[:30], train.Idx[:30]) {
		t.Errorf("test set of %d triplets, error of the truth %v", ts.Len(), metrics.TripletError(gmm.X, ts))
	}
	// --quiet: nothing at all.
	stdout, stderr, code = cli(t, "triplets", "--dataset", "uniform", "--n", "20", "--out", trips, "--quiet")
	if code != 0 || stdout != "" || stderr != "" {
		t.Errorf("--quiet: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestTripletsCommandErrors(t *testing.T) {
	out := []string{"triplets", "--dataset", "uniform", "--out", "t.csv"}
	with := func(args ...string) []string { return append(append([]string{}, out...), args...) }
	checkBadInputs(t, t.TempDir(), []badInput{
		{"no dataset", []string{"triplets", "--out", "t.csv"}, "--dataset (or --points) and --out are required", true},
		{"no out", []string{"triplets", "--dataset", "uniform"}, "--dataset (or --points) and --out are required", true},
		{"extra argument", with("more"), `unexpected argument "more"`, true},
		{"unknown extension", with("--out", "t.json"), `--out t.json: unknown extension ".json" (want .csv, .txt, .npy)`, true},
		{"count and lambda", with("--count", "10", "--lambda", "1"), "give either --count or --lambda, not both", true},
		{"count and dim", with("--count", "10", "--dim", "3"), "give either --count or --lambda/--dim, not both", true},
		{"count zero", with("--count", "0"), "--count must be ≥ 1", true},
		{"lambda zero", with("--lambda", "0"), "--lambda must be finite and > 0", true},
		{"dim zero", with("--dim", "0"), "--dim must be ≥ 1", true},
		{"negative n", with("--n", "-5"), "--n must be ≥ 0", true},
		{"level without noise", with("--level", "0.1"), "--level needs --noise", true},
		{"unknown noise", with("--noise", "salt", "--level", "0.1"), `unknown noise model "salt"`, false},
		{"flip probability above 1", with("--noise", "bernoulli", "--level", "2"), "must be in [0,1]", false},
		{"unknown dataset", []string{"triplets", "--dataset", "nosuchset", "--out", "t.csv"}, "nosuchset", false},
		{"dataset and points", with("--points", "x.npy"), "give --dataset or --points, not both", true},
		{"missing points file", []string{"triplets", "--points", "x.npy", "--out", "t.csv"}, "x.npy: no such file", false},
		{"two points", with("--n", "2", "--count", "5"), "need at least 3 points", false},
		{"test count without a file", with("--test-count", "100"), "--test-count and --test-out go together", true},
		{"test file extension", with("--test-count", "100", "--test-out", "test.json"), `--test-out test.json: unknown extension ".json"`, true},
		{"points folder missing", with("--points-out", "nodir/x.npy"), "--points-out nodir/x.npy: folder nodir", false},
		// Checked after loading, before anything is written: no t.csv.
		{"labels of a dataset without any", with("--labels-out", "y.npy"), "--labels-out: uniform has no labels", false},
	})
}
