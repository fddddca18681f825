package main

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

func writeTriplets(t *testing.T, dir string, n, m int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 1))
	x := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		x.Set(i, 0, rng.Float64())
		x.Set(i, 1, rng.Float64())
	}
	s, err := triplets.Random(x, m, triplets.Noise{}, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.csv")
	if err := triplets.WriteFile(path, s); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestEmbedCommand(t *testing.T) {
	dir := t.TempDir()
	trips := writeTriplets(t, dir, 40, 2000)
	for _, tc := range []struct{ alg, out string }{
		{"soe", "e.csv"}, {"ste", "e.npy"}, {"tste", "tste.csv"}, {"cklx", "c.npy"},
	} {
		out := filepath.Join(dir, tc.out)
		err := embedCommand([]string{"--algorithm", tc.alg, "--dim", "2", "--triplets", trips,
			"--out", out, "--epochs", "60", "--threads", "2", "--quiet"})
		if err != nil {
			t.Fatalf("%s: %v", tc.alg, err)
		}
		emb, err := embed.ReadEmbedding(out)
		if err != nil {
			t.Fatal(err)
		}
		if r, c := emb.Dims(); r != 40 || c != 2 {
			t.Errorf("%s: embedding %d×%d, want 40×2", tc.alg, r, c)
		}
	}
}

func TestEmbedCommandRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	trips := writeTriplets(t, dir, 40, 500)
	out := filepath.Join(dir, "e.csv")
	base := []string{"--triplets", trips, "--out", out, "--quiet"}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"zero dim", []string{"--dim", "0"}, "--dim"},
		{"n below largest index", []string{"--n", "5"}, "n=5"},
		{"NaN lr", []string{"--lr", "NaN"}, "--lr"},
		{"Inf lr", []string{"--lr", "+Inf"}, "--lr"},
		{"unknown algorithm", []string{"--algorithm", "nope"}, "unknown algorithm"},
		{"unknown parameter", []string{"--param", "zeta=1"}, "no parameter"},
		{"bad parameter syntax", []string{"--param", "mu"}, "name=value"},
		{"missing file", []string{"--triplets", filepath.Join(dir, "none.csv")}, "none.csv"},
		{"diverging run", []string{"--lr", "1e38"}, "epoch 1"},
		{"unknown backend", []string{"--backend", "tpu"}, `unknown backend "tpu"`},
		{"cuda for a CPU-only method", []string{"--algorithm", "gnmds", "--backend", "cuda"}, "gnmds is not supported on cuda"},
	}
	for _, tc := range tests {
		err := embedCommand(append(append([]string{}, base...), tc.args...))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want mention of %q", tc.name, err, tc.want)
		}
	}
	if err := embedCommand([]string{"--dim", "2"}); err == nil {
		t.Error("missing --triplets and --out accepted")
	}
}

// TestEmbedCommandBackends: where CUDA cannot run, --backend cuda fails
// with the reason and auto falls back to the CPU.
func TestEmbedCommandBackends(t *testing.T) {
	info, err := embed.Lookup("soe")
	if err != nil {
		t.Fatal(err)
	}
	why := info.Available("cuda")
	if why == nil {
		t.Skip("CUDA works here")
	}
	dir := t.TempDir()
	trips := writeTriplets(t, dir, 40, 500)
	out := filepath.Join(dir, "e.csv")
	args := []string{"--triplets", trips, "--out", out, "--quiet", "--epochs", "3"}
	if err := embedCommand(append(args, "--backend", "cuda")); err == nil || !strings.Contains(err.Error(), why.Error()) {
		t.Errorf("--backend cuda: error %v, want %v", err, why)
	}
	if err := embedCommand(append(args, "--backend", "auto")); err != nil {
		t.Errorf("--backend auto: %v", err)
	}
}

func TestBenchCommandRejectsBadFlags(t *testing.T) {
	tests := [][]string{
		{"--epochs", "0"},
		{"--threads", "-1"},
		{"--sizes", "mnist"},
		{"--algorithm", "nope"},
		{"--gpu-suite", "--suite", "usps"},
		{"--gpu-suite", "--profile-epochs", "-1"},
	}
	for _, args := range tests {
		if err := benchCommand(args); err == nil {
			t.Errorf("bench %v accepted", args)
		}
	}
}
