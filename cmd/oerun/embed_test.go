package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

// uniformPoints returns n points of the uniform dataset in two dimensions,
// seed 1: the tests' ground truth, drawn by the library's own generator.
func uniformPoints(n int) *mat.Dense {
	d, err := datasets.Load("uniform", datasets.Options{N: n, Seed: 1})
	if err != nil {
		panic(err) // a generated set has no files to fail on
	}
	return d.X
}

// writeTriplets writes m triplets over n uniform points to dir/name.
func writeTriplets(t *testing.T, dir, name string, n, m int) string {
	t.Helper()
	s, err := triplets.Random(uniformPoints(n), m, triplets.Noise{}, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := triplets.WriteFile(path, s); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readEmbedding(t *testing.T, path string, rows, cols int) *mat.Dense {
	t.Helper()
	emb, err := embed.ReadEmbedding(path)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := emb.Dims(); r != rows || c != cols {
		t.Fatalf("%s: embedding %d×%d, want %d×%d", path, r, c, rows, cols)
	}
	return emb
}

func TestEmbedCommand(t *testing.T) {
	dir := t.TempDir()
	trips := writeTriplets(t, dir, "t.csv", 40, 2000)
	for _, tc := range []struct{ alg, out string }{
		{"soe", "e.csv"}, {"ste", "e.npy"}, {"tste", "tste.csv"}, {"cklx", "c.npy"}, {"gnmdsx", "g.csv"},
	} {
		out := filepath.Join(dir, tc.out)
		stdout, stderr, code := cli(t, "embed", "--algorithm", tc.alg, "--dim", "2", "--triplets", trips,
			"--out", out, "--epochs", "60", "--threads", "2", "--quiet")
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "train error  0.") {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", tc.alg, code, stdout, stderr)
		}
		readEmbedding(t, out, 40, 2)
	}
}

// Every method runs from a dataset or points, the active ones included,
// with the number of queries printed; the test error and --json come with
// it.
func TestEmbedFromDatasetAndPoints(t *testing.T) {
	dir := t.TempDir()
	points := filepath.Join(dir, "x.npy")
	if err := embed.WriteEmbedding(points, uniformPoints(50)); err != nil {
		t.Fatal(err)
	}
	test := writeTriplets(t, dir, "test.csv", 50, 500)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"passive from a dataset", []string{"--algorithm", "soe", "--dataset", "uniform", "--n", "50", "--test", test},
			[]string{"train error  0.", "(1129 training triplets)", "test error   0.", "(500 triplets of " + test + ")"}},
		{"passive from points, --count", []string{"--algorithm", "ste", "--points", points, "--count", "800"}, []string{"(800 training triplets)"}},
		{"loe from a dataset", []string{"--algorithm", "loe", "--dataset", "uniform", "--n", "50"}, []string{"queries      "}},
		{"lloe from points, noisy", []string{"--algorithm", "lloe", "--points", points, "--noise", "bernoulli", "--level", "0.1", "--test", test},
			[]string{"queries      ", "test error   0."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "e.npy")
			args := append([]string{"embed", "--out", out, "--epochs", "30", "--threads", "2"}, tc.args...)
			stdout, stderr, code := cli(t, args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			if strings.Contains(tc.args[1], "loe") && strings.Contains(stdout, "train error") {
				t.Errorf("an active method has no training triplets:\n%s", stdout)
			}
			if !strings.Contains(stderr, " items of ") || strings.Contains(stderr, "\r") {
				t.Errorf("stderr (not a terminal) %q, want the summary and no carriage returns", stderr)
			}
			readEmbedding(t, out, 50, 2)

			// --json: one object on stdout with the results.db metric names.
			stdout, _, code = cli(t, append(args, "--json", "--quiet")...)
			var got map[string]any
			if err := json.Unmarshal([]byte(stdout), &got); code != 0 || err != nil {
				t.Fatalf("--json: exit %d, %v:\n%s", code, err, stdout)
			}
			if got["items"] != 50.0 || got["out"] != out || got["epochs"] == nil || got["fit_seconds"] == nil {
				t.Errorf("--json: %v", got)
			}
			active := strings.Contains(tc.args[1], "loe")
			if _, ok := got["queries"]; ok != active {
				t.Errorf("--json: queries present %v for an active method %v: %v", ok, active, got)
			}
			if _, ok := got["train_error"]; ok == active {
				t.Errorf("--json: train_error present %v for an active method %v: %v", ok, active, got)
			}
		})
	}
}

// The same flags and seed give the same triplets in oerun triplets and
// oerun embed: embedding them from the file gives the same embedding.
func TestEmbedDatasetMatchesTripletsFile(t *testing.T) {
	dir := t.TempDir()
	common := []string{"--dataset", "uniform", "--n", "60", "--dim", "2", "--seed", "7", "--noise", "gaussian", "--level", "0.1"}
	trips := filepath.Join(dir, "t.npy")
	if _, stderr, code := cli(t, append([]string{"triplets", "--out", trips, "--quiet"}, common...)...); code != 0 {
		t.Fatal(stderr)
	}
	fit := []string{"--epochs", "40", "--threads", "1", "--quiet"}
	a, b := filepath.Join(dir, "a.npy"), filepath.Join(dir, "b.npy")
	if _, stderr, code := cli(t, append(append([]string{"embed", "--out", a}, common...), fit...)...); code != 0 {
		t.Fatal(stderr)
	}
	if _, stderr, code := cli(t, append([]string{"embed", "--out", b, "--triplets", trips, "--seed", "7"}, fit...)...); code != 0 {
		t.Fatal(stderr)
	}
	if !mat.Equal(readEmbedding(t, a, 60, 2), readEmbedding(t, b, 60, 2)) {
		t.Error("embed --dataset and embed --triplets of oerun triplets' file differ")
	}
}

func TestEmbedCommandRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	writeTriplets(t, dir, "t.csv", 40, 500)
	writeTriplets(t, dir, "test50.csv", 50, 100)
	// The files (#15): an index of 2^31-1, which overflowed n, and
	// one of 2^31-2 among five items, which allocated 16 GiB.
	writeText(t, filepath.Join(dir, "overflow.csv"), "0,1,2\n0,1,2147483647\n")
	writeText(t, filepath.Join(dir, "huge.csv"), "0,1,2\n3,2147483646,1\n")
	writeText(t, filepath.Join(dir, "few.csv"), "0,1,2\n1,2,0\n")
	if err := os.Mkdir(filepath.Join(dir, "folder.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := []string{"embed", "--triplets", "t.csv", "--out", "e.csv", "--quiet", "--epochs", "5"}
	with := func(args ...string) []string { return append(append([]string{}, file...), args...) }
	checkBadInputs(t, dir, []badInput{
		{"no input", []string{"embed", "--out", "e.csv"}, "give one of --triplets, --dataset and --points", true},
		{"no --out", []string{"embed", "--triplets", "t.csv"}, "--out is required", true},
		{"two inputs", with("--dataset", "uniform"), "give one of --triplets, --dataset and --points", true},
		{"extra argument", with("more"), `unexpected argument "more"`, true},
		{"zero dim", with("--dim", "0"), "--dim must be ≥ 1, got 0", true},
		{"NaN lr", with("--lr", "NaN"), "--lr must be finite and ≥ 0, got NaN", true},
		{"--lambda with a file", with("--lambda", "3"), "--lambda draws triplets from --dataset or --points, not from --triplets", true},
		{"unknown algorithm", with("--algorithm", "nope"), `unknown algorithm "nope"`, false},
		{"unknown parameter names the valid ones", with("--param", "zeta=1"), `soe has no parameter "zeta" (its parameters: margin)`, false},
		{"parameter of a method without any", with("--algorithm", "ste", "--param", "mu=1"), `ste has no parameter "mu" (it has none)`, false},
		{"bad parameter syntax", with("--param", "mu"), `invalid value "mu" for flag -param: want name=value`, true},
		{"active method from a file", with("--algorithm", "loe"), "loe is an active method: it asks an oracle", true},
		{"active method with --lambda", []string{"embed", "--algorithm", "lloe", "--dataset", "uniform", "--lambda", "3", "--out", "e.csv"},
			"lloe is an active method: how many queries it asks is its own", true},
		{"unknown --out extension", with("--out", "e.json"), `--out e.json: unknown extension ".json" (want .csv, .txt, .npy)`, true},
		{"missing output folder", with("--out", "nodir/e.csv"), "--out nodir/e.csv: folder nodir: stat nodir: no such file or directory", false},
		{"output is a folder", with("--out", "folder.csv"), "--out folder.csv is a folder", true},
		{"--save-model without a model", with("--save-model", "m.oenn"), "--save-model: soe has no model to save (only oenn has)", true},
		{"--save-model folder missing", with("--algorithm", "oenn", "--save-model", "nodir/m.oenn"), "--save-model nodir/m.oenn: folder nodir", false},
		{"missing triplet file", with("--triplets", "none.csv"), "none.csv: no such file or directory", false},
		{"index 2^31-1", with("--triplets", "overflow.csv"), "overflow.csv:2: field 3: index 2147483647 is too large: items are numbered 0 to 2147483646 at most", false},
		{"index 2^31-2 among five items", with("--triplets", "huge.csv"),
			"huge.csv:2: index 2147483646 makes n = 2147483647 items, but only 5 of them appear in a triplet; give the number of items (oerun --n", false},
		// An explicit n far beyond the file's items allocated its n×d state and
		// died; d = 50 makes the estimate exceed any machine's memory.
		{"--n far beyond the items", with("--triplets", "few.csv", "--n", "2000000000", "--dim", "50"),
			"n=2000000000 items with 2 triplets (d=50) need about 3200000000024 bytes", false},
		{"--n below the file's", with("--n", "5"), "t.csv:1: file declares n=40 items, caller expects n=5", false},
		{"test triplets over other items", with("--test", "test50.csv"), "test50.csv:1: file declares n=50 items, caller expects n=40", false},
		{"diverging run writes nothing", with("--lr", "1e38"), "soe: epoch 1: diverged (NaN or Inf)", false},
		{"unknown dataset", []string{"embed", "--dataset", "nosuchset", "--out", "e.csv"}, `unknown dataset "nosuchset"`, false},
		{"unknown backend", with("--backend", "tpu"), `unknown backend "tpu"`, false},
		{"cuda for a CPU-only method", with("--algorithm", "gnmds", "--backend", "cuda"), "gnmds is not supported on cuda", false},
		{"unknown optimizer names the valid ones", with("--optimizer", "sgd"), `unknown optimizer "sgd", want adam or lbfgs`, false},
		{"optimizer the method lacks", with("--algorithm", "gnmds", "--optimizer", "lbfgs"), `gnmds has no optimizer "lbfgs", want adam`, false},
		{"L-BFGS on cuda", with("--optimizer", "lbfgs", "--backend", "cuda"), "soe with optimizer lbfgs is not supported on cuda (lbfgs runs on the CPU only", false},
		{"L-BFGS with a batch size", with("--optimizer", "lbfgs", "--batch", "100"), "soe: L-BFGS takes no learning rate or batch size", false},
	})
}

// --optimizer lbfgs fits on the full batch on the CPU; --json says so;
// --backend auto says that it runs on the CPU.
func TestEmbedCommandLBFGS(t *testing.T) {
	dir := t.TempDir()
	trips := writeTriplets(t, dir, "t.csv", 40, 2000)
	out := filepath.Join(dir, "e.npy")
	stdout, stderr, code := cli(t, "embed", "--algorithm", "cklx", "--optimizer", "LBFGS", "--dim", "2", "--triplets", trips,
		"--out", out, "--epochs", "30", "--json", "--backend", "auto")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var sum embedSummary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || sum.Optimizer != "lbfgs" || sum.Backend != "cpu" || sum.Epochs > 30 {
		t.Errorf("summary %+v (%v), want lbfgs on cpu in ≤ 30 epochs", sum, err)
	}
	if !strings.Contains(stderr, "--backend auto: lbfgs runs on the CPU only, so cklx runs on cpu") {
		t.Errorf("stderr %q does not say why auto runs on the CPU", stderr)
	}
	readEmbedding(t, out, 40, 2)
}

// TestEmbedCommandBackends: where CUDA cannot run, --backend cuda fails
// with the reason, and auto falls back to the CPU and says why.
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
	trips := writeTriplets(t, dir, "t.csv", 40, 500)
	out := filepath.Join(dir, "e.csv")
	args := []string{"embed", "--triplets", trips, "--out", out, "--quiet", "--epochs", "3"}
	if _, stderr, code := cli(t, append(args, "--backend", "cuda")...); code != 1 || !strings.Contains(stderr, why.Error()) {
		t.Errorf("--backend cuda: exit %d, stderr %q, want %v", code, stderr, why)
	}
	loud := []string{"embed", "--triplets", trips, "--out", out, "--epochs", "3", "--backend", "auto"}
	if _, stderr, code := cli(t, loud...); code != 0 || !strings.Contains(stderr, why.Error()+", so soe runs on cpu") {
		t.Errorf("--backend auto: exit %d, stderr %q, want it to say why soe runs on cpu (%v)", code, stderr, why)
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
