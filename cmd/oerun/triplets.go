package main

import (
	"flag"
	"fmt"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

func init() {
	register("triplets", command{
		summary: "draw random triplets (optionally noisy) from a dataset or points, with test triplets, points and labels to go with them; " +
			"write a dataset of comparisons' answers; split answers (oerun triplets split)",
		run: tripletsCommand,
	})
}

func tripletsCommand(args []string) error {
	if len(args) > 0 && args[0] == "split" {
		return splitCommand(args[1:])
	}
	fs := newFlags("triplets", "(--dataset NAME | --points x.npy) [--n N] [--lambda 2] [--dim d | --count M] [--noise bernoulli|gaussian --level x]\n"+
		"       [--seed s] [--data-dim k] [--pca k] [--threads t] [--test-count M --test-out test.npy] [--points-out x.npy] [--labels-out y.npy]\n"+
		"       --out file.csv|file.npy\n"+
		"   or: oerun triplets --dataset material --out train.csv [--test-out test.csv]   (a dataset of comparisons: its answers, named)\n"+
		"   or: oerun triplets split [--test-fraction 0.2] [--by query|triplet] [--seed s] IN --out TRAIN --test-out TEST   (oerun triplets split --help)")
	src := addSourceFlags(fs, "number of points of --dataset, a seeded subsample (0: the paper's size for the dataset)")
	dim := fs.Int("dim", 2, "embedding dimension d in the triplet count")
	seed := fs.Uint64("seed", 1, "random seed of the dataset's subsample or generation and of the triplets")
	threads := fs.Int("threads", 0, "generator threads (0: all cores); the triplets do not depend on it")
	out := fs.String("out", "", "output triplets, .csv or .npy")
	testCount := fs.Int("test-count", 0, "also draw this many fresh noiseless test triplets over the same items (the paper's test set: 10000)")
	testOut := fs.String("test-out", "", "with --test-count: where to write the test triplets, .csv or .npy")
	pointsOut := fs.String("points-out", "", "write the items' points (after subsampling and PCA), .csv or .npy, one row per item")
	labelsOut := fs.String("labels-out", "", "write the items' class labels, .csv or .npy (datasets with labels only)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	switch {
	case !src.given() || *out == "":
		return usageErrorf("--dataset (or --points) and --out are required")
	}
	if isComparisons(src.dataset) {
		return writeComparisons(fs, src.dataset, *out, *testOut)
	}
	switch {
	case set(fs, "count") && set(fs, "dim"):
		return usageErrorf("give either --count or --lambda/--dim, not both")
	case *dim < 1:
		return usageErrorf("--dim must be ≥ 1, got %d", *dim)
	case *threads < 0:
		return usageErrorf("--threads must be ≥ 0, got %d", *threads)
	case *testCount < 0:
		return usageErrorf("--test-count must be ≥ 0, got %d", *testCount)
	case (*testCount > 0) != (*testOut != ""):
		return usageErrorf("--test-count and --test-out go together")
	}
	if err := src.check(); err != nil {
		return err
	}
	// Every output is checked before the possibly long load and generation.
	if err := checkOutput("out", *out, tripletExts); err != nil {
		return err
	}
	for _, o := range []struct {
		flag, path string
		exts       []string
	}{{"test-out", *testOut, tripletExts}, {"points-out", *pointsOut, matrixExts}, {"labels-out", *labelsOut, labelsExts}} {
		if o.path == "" {
			continue
		}
		if err := checkOutput(o.flag, o.path, o.exts); err != nil {
			return err
		}
	}
	it, err := src.load(*seed)
	if err != nil {
		return err
	}
	if *labelsOut != "" && it.labels == nil {
		return fmt.Errorf("--labels-out: %s has no labels", it.name)
	}
	n, _ := it.x.Dims()
	m, rule := src.tripletCount(n, *dim)
	s, err := triplets.Random(it.x, m, src.noiseModel(), *seed, *threads)
	if err != nil {
		return fmt.Errorf("%s: %w", it.name, err)
	}
	outs := []output{{*out, func() error { return triplets.WriteFile(*out, s) }}}
	if *testCount > 0 {
		test, err := triplets.Random(it.x, *testCount, triplets.Noise{}, triplets.HeldOutSeed(*seed), *threads)
		if err != nil {
			return fmt.Errorf("%s: %w", it.name, err)
		}
		outs = append(outs, output{*testOut, func() error { return triplets.WriteFile(*testOut, test) }})
	}
	if *pointsOut != "" {
		outs = append(outs, output{*pointsOut, func() error { return embed.WriteEmbedding(*pointsOut, it.x) }})
	}
	if *labelsOut != "" {
		outs = append(outs, output{*labelsOut, func() error { return embed.WriteLabels(*labelsOut, it.labels) }})
	}
	if err := writeAll(outs); err != nil {
		return err
	}
	log := stderr(fs)
	fmt.Fprintf(log, "wrote %d triplets (%s; noise %v; seed %d) over %d items of %s to %s\n",
		m, rule, src.noiseModel(), *seed, n, it.name, *out)
	if *testCount > 0 {
		fmt.Fprintf(log, "wrote %d noiseless test triplets over the same items to %s\n", *testCount, *testOut)
	}
	if *pointsOut != "" {
		fmt.Fprintf(log, "wrote the items' points to %s\n", *pointsOut)
	}
	if *labelsOut != "" {
		fmt.Fprintf(log, "wrote the items' labels to %s\n", *labelsOut)
	}
	return nil
}

// writeComparisons writes the training answers of a dataset of comparisons
// to out and its test answers to testOut (if given), one triplet per vote,
// named.
func writeComparisons(fs *flag.FlagSet, dataset, out, testOut string) error {
	if err := checkComparisonsFlags(fs, dataset, "dim", "test-count", "points-out", "labels-out"); err != nil {
		return err
	}
	paths := []string{out}
	if testOut != "" {
		paths = append(paths, testOut)
	}
	for i, flagName := range []string{"out", "test-out"}[:len(paths)] {
		if err := checkOutput(flagName, paths[i], namedExts); err != nil {
			return err
		}
	}
	c, err := datasets.LoadComparisons(dataset)
	if err != nil {
		return err
	}
	sets := []*triplets.Set{c.Triplets(c.Train, datasets.EachVote), c.Triplets(c.Test, datasets.EachVote)}
	outs := make([]output, len(paths))
	for i, path := range paths {
		s := sets[i]
		outs[i] = output{path, func() error { return triplets.WriteFile(path, s) }}
	}
	if err := writeAll(outs); err != nil {
		return err
	}
	log := stderr(fs)
	fmt.Fprintf(log, "wrote %s's %d training answers (one triplet per vote) over %d named items to %s\n", c.Name, sets[0].Len(), sets[0].N, out)
	if testOut != "" {
		fmt.Fprintf(log, "wrote its %d test answers to %s\n", sets[1].Len(), testOut)
	}
	return nil
}
