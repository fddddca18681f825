package main

import (
	"fmt"

	"github.com/oe-lab/oe/lib/triplets"
)

// splitCommand is oerun triplets split: hold out answers for testing.
func splitCommand(args []string) error {
	fs := newFlags("triplets split", "[--test-fraction 0.2] [--by query|triplet] [--seed s] [--n N] [--columns h,l,r,a] IN --out TRAIN --test-out TEST")
	fraction := fs.Float64("test-fraction", 0.2, "fraction of the queries (or triplets, --by triplet) held out for testing, in (0, 1)")
	by := fs.String("by", "query", "what stays together: query (the head with the unordered pair of candidates: all its answers on one side) or triplet (answers split independently)")
	seed := fs.Uint64("seed", 1, "random seed of the split (same seed, same split)")
	n := fs.Int("n", 0, "number of numbered items (0: the file's \"# n=N\" line, else the largest index + 1)")
	out := fs.String("out", "", "training part, in the input's form (.csv or .npy; .csv for named items and responses)")
	testOut := fs.String("test-out", "", "test part, in the input's form")
	columns := addColumnsFlag(fs)
	ins, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	unit, byErr := triplets.ParseSplitBy(*by)
	switch {
	case len(ins) != 1:
		return usageErrorf("give one input file, got %d", len(ins))
	case *out == "" || *testOut == "":
		return usageErrorf("--out and --test-out are required")
	case !(*fraction > 0 && *fraction < 1):
		return usageErrorf("--test-fraction must lie in (0, 1), got %v", *fraction)
	case byErr != nil:
		return usageErrorf("--by %s: want query or triplet", *by)
	case *n < 0:
		return usageErrorf("--n must be ≥ 0, got %d", *n)
	}
	in := ins[0]
	s, form, err := readTriplets(in, *n, columns)
	if err != nil {
		return err
	}
	exts := tripletExts
	if s.Names != nil || form == triplets.FormResponses {
		exts = namedExts
	}
	for _, o := range []struct{ flag, path string }{{"out", *out}, {"test-out", *testOut}} {
		if err := checkOutput(o.flag, o.path, exts); err != nil {
			return err
		}
	}
	train, test, err := triplets.Split(s, *fraction, unit, *seed)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if err := writeAll([]output{
		{*out, func() error { return triplets.WriteFileAs(*out, train, form) }},
		{*testOut, func() error { return triplets.WriteFileAs(*testOut, test, form) }},
	}); err != nil {
		return err
	}
	fmt.Fprintf(stderr(fs), "split %s (%s) by %s, seed %d: %s → %s, %s → %s\n", in, size(s), unit, *seed, size(train), *out, size(test), *testOut)
	return nil
}

// size says how many triplets and queries s holds.
func size(s *triplets.Set) string {
	q := len(triplets.Tallies(s))
	if q == 1 {
		return fmt.Sprintf("%d triplets, 1 query", s.Len())
	}
	return fmt.Sprintf("%d triplets, %d queries", s.Len(), q)
}
