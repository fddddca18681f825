package main

import (
	"flag"
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

// columnsFlag is --columns: the names of a responses file's columns.
type columnsFlag struct{ cols triplets.Columns }

func (c *columnsFlag) String() string {
	if c == nil || c.cols == (triplets.Columns{}) {
		return ""
	}
	return strings.Join([]string{c.cols.Head, c.cols.Left, c.cols.Right, c.cols.Answer}, ",")
}

func (c *columnsFlag) Set(s string) error {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return fmt.Errorf("want four column names head,left,right,answer, got %q", s)
	}
	c.cols = triplets.Columns{Head: parts[0], Left: parts[1], Right: parts[2], Answer: parts[3]}
	return nil
}

// addColumnsFlag registers --columns on a command that reads triplet files.
func addColumnsFlag(fs *flag.FlagSet) *columnsFlag {
	c := &columnsFlag{}
	fs.Var(c, "columns", "the `names` of a responses file's columns, in the order head,left,right,answer "+
		"(default head,left,right,answer: a CSV file with that header holds one answer a row)")
	return c
}

// readTriplets reads a triplet or responses file over n items (0: from the
// file), its columns named by cols.
func readTriplets(path string, n int, cols *columnsFlag) (*triplets.Set, triplets.Form, error) {
	return triplets.ReadFileWith(path, triplets.ReadOptions{N: n, Columns: cols.cols})
}

// isComparisons reports whether name is a registered dataset of
// comparisons (an unknown name is not: the caller's loader reports it).
func isComparisons(name string) bool {
	spec, err := datasets.Lookup(name)
	return err == nil && spec.Kind == datasets.KindComparisons
}

// testScores are the held-out measures of an embedding on test triplets:
// the triplet error, and where people answered some query more than once
// the majority error (metrics.MajorityError, the material data's test
// measure) over the untied queries.
type testScores struct {
	err, majority *float64
	triplets      int
	untied        int // queries without a tie, those the majority error scores
}

func scoreTest(emb *mat.Dense, test *triplets.Set) testScores {
	e := metrics.TripletError(emb, test)
	s := testScores{err: &e, triplets: test.Len()}
	tallies := triplets.Tallies(test)
	if len(tallies) < test.Len() {
		m := metrics.MajorityError(emb, test)
		s.majority = &m
		for _, q := range tallies {
			if q.ForA != q.ForB {
				s.untied++
			}
		}
	}
	return s
}

// readTest reads test triplets (or responses) for an embedding of rows
// items, named by names (nil: numbered), which embPath (a file, or the
// training triplets) holds: named test items become the rows of their
// names, and an unknown name is an error naming it.
func readTest(path string, rows int, names []string, embPath string, cols *columnsFlag) (*triplets.Set, error) {
	n := rows
	if names != nil {
		n = 0 // a named file's items are the names it uses
	}
	test, _, err := readTriplets(path, n, cols)
	if err != nil {
		return nil, err
	}
	if test.Names == nil {
		if test.N > rows {
			return nil, fmt.Errorf("%s: its triplets number %d items, %s has %d", path, test.N, embPath, rows)
		}
		test.N = rows
	}
	return onEmbedding(test, path, names, embPath)
}

// onEmbedding returns test (named testName in errors) as triplets over the
// rows of an embedding (embPath) named by names: named items become the
// rows of their names, and an unknown name is an error naming it; numbered
// items are row numbers already.
func onEmbedding(test *triplets.Set, testName string, names []string, embPath string) (*triplets.Set, error) {
	if test.Names == nil {
		return test, nil
	}
	if names == nil {
		return nil, fmt.Errorf("%s names its items, but %s has no names (a CSV name column, or a .names.txt beside an .npy)", testName, embPath)
	}
	s, err := test.Renumber(names)
	if err != nil {
		return nil, fmt.Errorf("%s: %s of %s", testName, strings.TrimPrefix(err.Error(), "triplets: "), embPath)
	}
	return s, nil
}

// checkComparisonsFlags rejects, for a dataset of comparisons, the flags
// that draw triplets from points and those named in own (which the dataset
// supplies itself).
func checkComparisonsFlags(fs *flag.FlagSet, dataset string, own ...string) error {
	for _, name := range append([]string{"lambda", "count", "noise", "level", "n", "data-dim", "pca"}, own...) {
		if set(fs, name) {
			return usageErrorf("--%s does not apply to %s, a dataset of comparisons: its own training and test answers are used", name, dataset)
		}
	}
	return nil
}
