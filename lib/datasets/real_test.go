package datasets

import (
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// paperSizes are the sizes the paper's appendix ("Description of datasets")
// gives: n points of dim dimensions, and the number of classes (0: the
// files carry no labels). Birch1 and Birch3 are used with n = 10,000 of the
// 100,000 points in their files.
var paperSizes = []struct {
	name         string
	n, dim       int
	fileN        int
	classes      int
	minV, maxV   float64 // range of the values, where the format fixes it
	checkRange   bool
	labelsFromTo [2]int
}{
	{name: "aggregation", n: 788, dim: 2, fileN: 788, classes: 7, labelsFromTo: [2]int{1, 7}},
	{name: "compound", n: 399, dim: 2, fileN: 399, classes: 6, labelsFromTo: [2]int{1, 6}},
	{name: "pathbased", n: 300, dim: 2, fileN: 300, classes: 3, labelsFromTo: [2]int{1, 3}},
	{name: "spiral", n: 312, dim: 2, fileN: 312, classes: 3, labelsFromTo: [2]int{1, 3}},
	{name: "birch1", n: 10000, dim: 2, fileN: 100000, classes: 100, labelsFromTo: [2]int{1, 100}},
	{name: "birch3", n: 10000, dim: 2, fileN: 100000},
	{name: "worms", n: 105600, dim: 2, fileN: 105600, classes: 35, labelsFromTo: [2]int{1, 35}},
	{name: "char", n: 1797, dim: 64, fileN: 1797, classes: 10, checkRange: true, minV: 0, maxV: 16, labelsFromTo: [2]int{0, 9}},
	{name: "usps", n: 7291, dim: 256, fileN: 9298, classes: 10, checkRange: true, minV: 0, maxV: 255, labelsFromTo: [2]int{0, 9}},
	{name: "mnist", n: 60000, dim: 784, fileN: 60000, classes: 10, checkRange: true, minV: 0, maxV: 255, labelsFromTo: [2]int{0, 9}},
	{name: "fmnist", n: 60000, dim: 784, fileN: 60000, classes: 10, checkRange: true, minV: 0, maxV: 255, labelsFromTo: [2]int{0, 9}},
	{name: "kmnist", n: 60000, dim: 784, fileN: 60000, classes: 10, checkRange: true, minV: 0, maxV: 255, labelsFromTo: [2]int{0, 9}},
	{name: "covtype", n: 581012, dim: 54, fileN: 581012, classes: 7, labelsFromTo: [2]int{1, 7}},
}

// TestRealFiles loads every dataset whose files are present ($OE_DATA, data/
// or the cache) and checks it against the paper's sizes. Absent datasets are
// skipped with a message; nothing is downloaded.
func TestRealFiles(t *testing.T) {
	t.Setenv("OE_OFFLINE", "1")
	if os.Getenv("OE_DATA") == "" {
		t.Log("OE_DATA is not set: only data/ and the cache are searched (make test sets OE_DATA where the shared data folder exists)")
	}
	for _, want := range paperSizes {
		t.Run(want.name, func(t *testing.T) {
			st, err := Find(want.name)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range st {
				if s.Source == Missing {
					t.Skipf("absent: %s is in none of $OE_DATA, data/ or the cache", s.File.Path)
				}
			}
			ds, err := Load(want.name, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if r, c := ds.X.Dims(); r != want.n || c != want.dim {
				t.Errorf("loaded %d×%d, the paper uses %d×%d", r, c, want.n, want.dim)
			}
			checkLabels(t, ds, want.classes, want.labelsFromTo)
			if want.checkRange {
				if lo, hi := mat.Min(ds.X), mat.Max(ds.X); lo != want.minV || hi != want.maxV {
					t.Errorf("values span [%v, %v], want [%v, %v]", lo, hi, want.minV, want.maxV)
				}
			}
			if want.fileN != want.n {
				checkSubsampling(t, want.name, want.n, want.fileN)
			}
		})
	}
}

func checkLabels(t *testing.T, ds *Dataset, classes int, fromTo [2]int) {
	t.Helper()
	n, _ := ds.X.Dims()
	if classes == 0 {
		if ds.Labels != nil {
			t.Errorf("unlabeled set has %d labels", len(ds.Labels))
		}
		return
	}
	if len(ds.Labels) != n {
		t.Fatalf("%d labels for %d points", len(ds.Labels), n)
	}
	distinct := slices.Compact(slices.Sorted(slices.Values(ds.Labels)))
	if len(distinct) != classes || distinct[0] != fromTo[0] || distinct[len(distinct)-1] != fromTo[1] {
		t.Errorf("labels take %d values %d..%d, want %d classes %d..%d",
			len(distinct), distinct[0], distinct[len(distinct)-1], classes, fromTo[0], fromTo[1])
	}
}

// checkSubsampling checks that the default subsample is seeded (or, for a
// dataset with a train set, is the train set: the files' first n points)
// and that all points are there when asked for, and no more.
func checkSubsampling(t *testing.T, name string, n, fileN int) {
	t.Helper()
	spec, _ := Lookup(name)
	a, _ := Load(name, Options{Seed: 1})
	b, _ := Load(name, Options{Seed: 1})
	c, _ := Load(name, Options{Seed: 2})
	all, err := Load(name, Options{N: fileN})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case spec.Train > 0 && !(mat.Equal(a.X, c.X) && mat.Equal(a.X, all.X.Slice(0, n, 0, spec.Dim))):
		t.Error("the default is not the train set, the files' first points")
	case spec.Train == 0 && (!mat.Equal(a.X, b.X) || mat.Equal(a.X, c.X)):
		t.Error("the default subsample is not determined by the seed")
	}
	if r, _ := all.X.Dims(); r != fileN {
		t.Errorf("N=%d gave %d points", fileN, r)
	}
	if _, err := Load(name, Options{N: fileN + 1}); err == nil {
		t.Errorf("N=%d (more than the file holds) gave no error", fileN+1)
	}
}
