package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/datasets"
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
			args := append([]string{"--dataset", "uniform", "--out", out}, tc.args...)
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
			"--noise", "gaussian", "--level", "0.5", "--seed", "9", "--threads", threads, "--out", out})
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

func TestTripletsCommandErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "t.csv")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no dataset", []string{"--out", out}, "--dataset and --out are required"},
		{"no out", []string{"--dataset", "uniform"}, "--dataset and --out are required"},
		{"extra argument", []string{"--dataset", "uniform", "--out", out, "more"}, "unexpected argument \"more\""},
		{"unknown extension", []string{"--dataset", "uniform", "--out", filepath.Join(dir, "t.json")}, "unknown triplet file extension \".json\""},
		{"count and lambda", []string{"--dataset", "uniform", "--out", out, "--count", "10", "--lambda", "1"}, "either --count or --lambda/--dim"},
		{"count zero", []string{"--dataset", "uniform", "--out", out, "--count", "0"}, "--count must be ≥ 1"},
		{"lambda zero", []string{"--dataset", "uniform", "--out", out, "--lambda", "0"}, "--lambda must be finite and > 0"},
		{"dim zero", []string{"--dataset", "uniform", "--out", out, "--dim", "0"}, "--dim must be ≥ 1"},
		{"negative n", []string{"--dataset", "uniform", "--out", out, "--n", "-5"}, "--n must be ≥ 0"},
		{"level without noise", []string{"--dataset", "uniform", "--out", out, "--level", "0.1"}, "--level needs --noise"},
		{"unknown noise", []string{"--dataset", "uniform", "--out", out, "--noise", "salt", "--level", "0.1"}, "unknown noise model \"salt\""},
		{"flip probability above 1", []string{"--dataset", "uniform", "--out", out, "--noise", "bernoulli", "--level", "2"}, "must be in [0,1]"},
		{"unknown dataset", []string{"--dataset", "nosuchset", "--out", out}, "nosuchset"},
		{"two points", []string{"--dataset", "uniform", "--n", "2", "--count", "5", "--out", out}, "need at least 3 points"},
	}
	for _, tc := range tests {
		err := tripletsCommand(tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed command left %s behind (%v)", out, err)
	}
}
