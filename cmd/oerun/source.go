package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

// sourceFlags choose the items a command works on, a dataset of lib/datasets
// or points from a file, and how triplets are drawn from them: the rule of
// the paper's experiments, ⌈λ·n·d·log₂ n⌉ triplets (runner/evaluate), or a
// given count, with optional noise. oerun triplets and oerun embed share
// them, so that the same flags and seed give the same items and triplets.
type sourceFlags struct {
	fs               *flag.FlagSet
	dataset, points  string
	n, dataDim, pca  int
	lambda           float64
	count            int
	noise            string
	level            float64
	lambdaOrCountSet bool
}

// addSourceFlags registers the flags; nDoc says what --n means to the
// command.
func addSourceFlags(fs *flag.FlagSet, nDoc string) *sourceFlags {
	f := &sourceFlags{fs: fs}
	fs.StringVar(&f.dataset, "dataset", "", "dataset name, e.g. char, fmnist, uniform, gmm (oerun data lists them)")
	fs.StringVar(&f.points, "points", "", "the items' points from a file instead of a dataset: .csv or .npy, one row per item")
	fs.IntVar(&f.n, "n", 0, nDoc)
	fs.IntVar(&f.dataDim, "data-dim", 0, "with --dataset: dimension of a synthetic dataset's points (gmm, uniform; 0: its default)")
	fs.IntVar(&f.pca, "pca", 0, "with --dataset: project it onto its top k principal components first (0: no)")
	fs.Float64Var(&f.lambda, "lambda", 2, "triplet multiplier λ: draw ⌈λ·n·d·log₂ n⌉ triplets, as the paper's experiments do")
	fs.IntVar(&f.count, "count", 0, "number of triplets, instead of the λ rule")
	fs.StringVar(&f.noise, "noise", "", "noise model: bernoulli (flip probability --level) or gaussian (σ --level on distances); empty or none: no noise")
	fs.Float64Var(&f.level, "level", 0, "noise level: flip probability or σ")
	return f
}

// given reports whether the items come from a dataset or a points file.
func (f *sourceFlags) given() bool { return f.dataset != "" || f.points != "" }

// set reports whether the flag was given on the command line.
func set(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// check validates the flags before anything is loaded.
func (f *sourceFlags) check() error {
	switch {
	case f.dataset != "" && f.points != "":
		return usageErrorf("give --dataset or --points, not both")
	case f.n < 0:
		return usageErrorf("--n must be ≥ 0, got %d", f.n)
	case f.points != "" && f.n != 0:
		return usageErrorf("--n subsamples a --dataset; with --points every row is an item")
	case f.dataset == "" && (f.dataDim != 0 || f.pca != 0):
		return usageErrorf("--data-dim and --pca apply to a --dataset")
	case f.dataDim < 0 || f.pca < 0:
		return usageErrorf("--data-dim and --pca must be ≥ 0")
	case f.count < 0:
		return usageErrorf("--count must be ≥ 0, got %d", f.count)
	case set(f.fs, "count") && set(f.fs, "lambda"):
		return usageErrorf("give either --count or --lambda, not both")
	case set(f.fs, "count") && f.count == 0:
		return usageErrorf("--count must be ≥ 1")
	case !(f.lambda > 0) || math.IsInf(f.lambda, 0):
		return usageErrorf("--lambda must be finite and > 0, got %v", f.lambda)
	case set(f.fs, "level") && f.noiseModel().Model == triplets.NoNoise:
		return usageErrorf("--level needs --noise bernoulli or gaussian")
	}
	return f.noiseModel().Check()
}

// noiseModel returns the noise the flags ask for.
func (f *sourceFlags) noiseModel() triplets.Noise {
	if f.noise == "" || f.noise == "none" {
		return triplets.Noise{}
	}
	return triplets.Noise{Model: triplets.NoiseModel(f.noise), Level: f.level}
}

// items are the points a command works on, with their labels (nil when
// they have none) and a name for messages.
type items struct {
	name   string
	x      *mat.Dense
	labels []int
}

// load reads the dataset (subsampled and generated with seed) or the points
// file.
func (f *sourceFlags) load(seed uint64) (*items, error) {
	if f.points != "" {
		x, err := embed.ReadEmbedding(f.points)
		if err != nil {
			return nil, err
		}
		r, _ := x.Dims()
		for i := 0; i < r; i++ {
			for j, v := range x.RawRowView(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("%s: row %d, column %d is %v", f.points, i+1, j+1, v)
				}
			}
		}
		if r < 3 {
			return nil, fmt.Errorf("%s: %d points, need at least 3", f.points, r)
		}
		return &items{name: f.points, x: x}, nil
	}
	ds, err := datasets.Load(f.dataset, datasets.Options{N: f.n, Dim: f.dataDim, PCA: f.pca, Seed: seed})
	if err != nil {
		return nil, err
	}
	return &items{name: ds.Name, x: ds.X, labels: ds.Labels}, nil
}

// tripletCount returns the number of triplets to draw over n items for an
// embedding in d dimensions, and the rule that gave it.
func (f *sourceFlags) tripletCount(n, d int) (int, string) {
	if set(f.fs, "count") {
		return f.count, fmt.Sprintf("--count %d", f.count)
	}
	return triplets.Count(f.lambda, n, d), fmt.Sprintf("⌈λ·n·d·log₂ n⌉ with λ=%g, n=%d, d=%d", f.lambda, n, d)
}

// Extensions of the files commands write.
var (
	matrixExts  = []string{".csv", ".txt", ".npy"} // embeddings, points (lib/embed)
	labelsExts  = matrixExts                       // labels (lib/embed)
	tripletExts = []string{".csv", ".txt", ".npy"} // triplets (lib/triplets FileFormat)
	namedExts   = []string{".csv", ".txt"}         // triplets of named items, responses
)

// checkOutput checks before anything is computed that path can be written
// as flag asks: a known extension (exts; nil: any), an existing folder that
// is writable, and not a folder itself.
func checkOutput(flagName, path string, exts []string) error {
	if exts != nil {
		ext := strings.ToLower(filepath.Ext(path))
		known := false
		for _, e := range exts {
			known = known || e == ext
		}
		if !known {
			return usageErrorf("--%s %s: unknown extension %q (want %s)", flagName, path, filepath.Ext(path), strings.Join(exts, ", "))
		}
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return usageErrorf("--%s %s is a folder", flagName, path)
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("--%s %s: folder %s: %w", flagName, path, dir, err)
	case !st.IsDir():
		return fmt.Errorf("--%s %s: %s is not a folder", flagName, path, dir)
	}
	probe, err := os.CreateTemp(dir, ".oerun-write-check-*")
	if err != nil {
		return fmt.Errorf("--%s %s: folder %s is not writable: %w", flagName, path, dir, err)
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// output is a file a command writes once everything is computed.
type output struct {
	path  string
	write func() error
}

// writeAll writes the outputs in order; if one fails, those written before
// it are removed, so that a command leaves all its files or none.
func writeAll(outs []output) error {
	for i, o := range outs {
		if err := o.write(); err != nil {
			for _, done := range outs[:i] {
				os.Remove(done.path)
			}
			return err
		}
	}
	return nil
}
