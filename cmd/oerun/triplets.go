package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/triplets"
)

func init() {
	register("triplets", command{
		summary: "generate random triplets (optionally noisy) from a dataset and write them to .csv or .npy",
		run:     tripletsCommand,
	})
}

func tripletsCommand(args []string) error {
	fs := newFlags("triplets", "--dataset NAME [--n N] [--lambda 2] [--dim d | --count M] [--noise bernoulli|gaussian --level x]\n"+
		"       [--seed s] [--data-dim k] [--pca k] [--threads t] --out file.csv|file.npy")
	dataset := fs.String("dataset", "", "dataset name (required), e.g. uniform, gmm, mnist; see oerun data")
	n := fs.Int("n", 0, "number of points (0: the paper's size for the dataset)")
	lambda := fs.Float64("lambda", 2, "triplet multiplier λ: generate ⌈λ·n·d·log₂ n⌉ triplets")
	dim := fs.Int("dim", 2, "embedding dimension d in the triplet count")
	count := fs.Int("count", 0, "number of triplets, instead of the λ·n·d·log₂ n rule")
	noise := fs.String("noise", "", "noise model: bernoulli (flip probability --level) or gaussian (σ --level on distances); empty or none: no noise")
	level := fs.Float64("level", 0, "noise level: flip probability or σ")
	seed := fs.Uint64("seed", 1, "random seed for the dataset's subsample or generation and for the triplets")
	dataDim := fs.Int("data-dim", 0, "dimension of a synthetic dataset's points (gmm, uniform; 0: its default)")
	pca := fs.Int("pca", 0, "project the dataset onto its top k principal components first (0: no)")
	threads := fs.Int("threads", 0, "generator threads (0: all cores); the triplets do not depend on it")
	out := fs.String("out", "", "output file, .csv or .npy (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *dataset == "" || *out == "" {
		fs.Usage()
		return errors.New("--dataset and --out are required")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case *n < 0:
		return fmt.Errorf("--n must be ≥ 0, got %d", *n)
	case *count < 0:
		return fmt.Errorf("--count must be ≥ 0, got %d", *count)
	case set["count"] && (set["lambda"] || set["dim"]):
		return errors.New("give either --count or --lambda/--dim, not both")
	case set["count"] && *count == 0:
		return errors.New("--count must be ≥ 1")
	case !(*lambda > 0) || math.IsInf(*lambda, 0):
		return fmt.Errorf("--lambda must be finite and > 0, got %v", *lambda)
	case *dim < 1:
		return fmt.Errorf("--dim must be ≥ 1, got %d", *dim)
	case *threads < 0:
		return fmt.Errorf("--threads must be ≥ 0, got %d", *threads)
	case set["level"] && (*noise == "" || *noise == "none"):
		return errors.New("--level needs --noise bernoulli or gaussian")
	}
	nz := triplets.Noise{Model: triplets.NoiseModel(*noise), Level: *level}
	if *noise == "none" {
		nz = triplets.Noise{}
	}
	if err := nz.Check(); err != nil {
		return err
	}
	// Reject an unknown output format before the possibly long load and
	// generation.
	if _, err := triplets.FileFormat(*out); err != nil {
		return err
	}
	ds, err := datasets.Load(*dataset, datasets.Options{N: *n, Dim: *dataDim, PCA: *pca, Seed: *seed})
	if err != nil {
		return err
	}
	items, _ := ds.X.Dims()
	m := *count
	rule := fmt.Sprintf("--count %d", m)
	if !set["count"] {
		m = triplets.Count(*lambda, items, *dim)
		rule = fmt.Sprintf("⌈λ·n·d·log₂ n⌉ with λ=%g, n=%d, d=%d", *lambda, items, *dim)
	}
	s, err := triplets.Random(ds.X, m, nz, *seed, *threads)
	if err != nil {
		return fmt.Errorf("%s: %w", ds.Name, err)
	}
	if err := triplets.WriteFile(*out, s); err != nil {
		return err
	}
	fmt.Fprintf(os.Stdout, "wrote %d triplets (%s; noise %v; seed %d) over %d items of %s to %s\n",
		m, rule, nz, *seed, items, ds.Name, *out)
	return nil
}
