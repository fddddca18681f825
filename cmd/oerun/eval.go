package main

import (
	"fmt"
	"math"
	"os"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

func init() {
	register("eval", command{
		summary: "measure an embedding: triplet error on test triplets, kNN error against labels, Procrustes against points",
		run:     evalCommand,
	})
}

// evalSummary is what oerun eval --json prints; the metric names are those
// of results.db.
type evalSummary struct {
	Embedding    string   `json:"embedding"`
	Items        int      `json:"items"`
	Dim          int      `json:"dim"`
	TestError    *float64 `json:"test_error,omitempty"`
	TestTriplets int      `json:"test_triplets,omitempty"`
	// MajorityTestError is metrics.MajorityError over TestQueries untied
	// queries, where the test set repeats queries (answers people gave).
	MajorityTestError *float64 `json:"majority_test_error,omitempty"`
	TestQueries       int      `json:"test_queries,omitempty"`
	KNNError          *float64 `json:"knn_error,omitempty"`
	Procrustes        *float64 `json:"procrustes,omitempty"`
}

func evalCommand(args []string) error {
	fs := newFlags("eval", "--embedding emb.npy [--triplets test.npy | --dataset material] [--labels y.npy] [--points x.npy] [--seed s] [--json]")
	embPath := fs.String("embedding", "", "the embedding, .csv or .npy, one row per item (as oerun embed writes it; named rows: a CSV name column, or X.names.txt beside X.npy)")
	tripPath := fs.String("triplets", "", "test triplets over the embedding's items, .csv or .npy: prints the fraction the embedding violates "+
		"(named items, or people's answers, against a named embedding: by name; and the majority error where queries were answered more than once)")
	dataset := fs.String("dataset", "", "a dataset of comparisons (material): score the embedding, by name, on its test answers")
	columns := addColumnsFlag(fs)
	labelsPath := fs.String("labels", "", "one class label per item, .csv or .npy: prints the kNN error (k = ⌊log₂ n⌋, 70/30 split)")
	pointsPath := fs.String("points", "", "the items' true points, .csv or .npy: prints the Procrustes disparity (SciPy's)")
	seed := fs.Uint64("seed", 1, "seed of the kNN error's 70/30 split")
	asJSON := fs.Bool("json", false, "print a JSON summary (metric names as in results.db) on stdout instead of text")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	switch {
	case *embPath == "":
		return usageErrorf("--embedding is required")
	case *tripPath == "" && *dataset == "" && *labelsPath == "" && *pointsPath == "":
		return usageErrorf("give at least one of --triplets, --dataset, --labels and --points to measure against")
	case *tripPath != "" && *dataset != "":
		return usageErrorf("give --triplets or --dataset, not both")
	}
	var comp *datasets.Comparisons
	if *dataset != "" {
		if !isComparisons(*dataset) {
			return usageErrorf("--dataset %s: eval scores against a dataset of comparisons (oerun data lists them); for points, give --points and --labels files", *dataset)
		}
		c, err := datasets.LoadComparisons(*dataset)
		if err != nil {
			return err
		}
		comp = c
	}
	emb, embNames, err := embed.ReadNamedEmbedding(*embPath)
	if err != nil {
		return err
	}
	n, d := emb.Dims()
	for i := 0; i < n; i++ {
		for j, v := range emb.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s: row %d, column %d is %v", *embPath, i+1, j+1, v)
			}
		}
	}
	sum := evalSummary{Embedding: *embPath, Items: n, Dim: d}
	// Every input is read and checked before any metric is computed.
	var test *triplets.Set
	testName := *tripPath
	switch {
	case *tripPath != "":
		if test, err = readTest(*tripPath, n, embNames, *embPath, columns); err != nil {
			return err
		}
	case comp != nil:
		testName = comp.Name + "'s test comparisons"
		if test, err = onEmbedding(comp.Triplets(comp.Test, datasets.EachVote), testName, embNames, *embPath); err != nil {
			return err
		}
	}
	var labels []int
	if *labelsPath != "" {
		if labels, err = embed.ReadLabels(*labelsPath); err != nil {
			return err
		}
		if len(labels) != n {
			return fmt.Errorf("%s has %d labels for the %d items of %s", *labelsPath, len(labels), n, *embPath)
		}
	}
	if *pointsPath != "" {
		pts, err := embed.ReadEmbedding(*pointsPath)
		if err != nil {
			return err
		}
		if r, _ := pts.Dims(); r != n {
			return fmt.Errorf("%s has %d points for the %d items of %s", *pointsPath, r, n, *embPath)
		}
		p, err := metrics.Procrustes(pts, emb)
		if err != nil {
			return fmt.Errorf("procrustes against %s: %w", *pointsPath, err)
		}
		sum.Procrustes = &p
	}
	if test != nil {
		sc := scoreTest(emb, test)
		sum.TestError, sum.TestTriplets, sum.MajorityTestError, sum.TestQueries = sc.err, sc.triplets, sc.majority, sc.untied
	}
	if labels != nil {
		e, err := metrics.KNNError(emb, labels, *seed)
		if err != nil {
			return fmt.Errorf("kNN error with %s: %w", *labelsPath, err)
		}
		sum.KNNError = &e
	}
	if *asJSON {
		return printJSON(os.Stdout, sum)
	}
	if sum.TestError != nil {
		fmt.Printf("triplet error  %.4f  (%d triplets of %s)\n", *sum.TestError, sum.TestTriplets, testName)
	}
	if sum.MajorityTestError != nil {
		fmt.Printf("majority       %.4f  (test queries without a tie whose majority answer the embedding violates, of %d)\n", *sum.MajorityTestError, sum.TestQueries)
	}
	if sum.KNNError != nil {
		fmt.Printf("kNN error      %.4f  (k = ⌊log₂ %d⌋, 70/30 split, seed %d)\n", *sum.KNNError, n, *seed)
	}
	if sum.Procrustes != nil {
		fmt.Printf("procrustes     %.4f  (against %s)\n", *sum.Procrustes, *pointsPath)
	}
	return nil
}
