package datasets_test

import (
	"fmt"

	"github.com/oe-lab/oe/lib/datasets"
)

// Load a synthetic set: six points of the paper's two-Gaussian mixture in 2D.
// File-backed sets load the same way, for example
// datasets.Load("char", datasets.Options{PCA: 10}).
func ExampleLoad() {
	ds, err := datasets.Load("gmm", datasets.Options{N: 6, Dim: 2, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	n, dim := ds.X.Dims()
	fmt.Printf("%s: %d × %d, labels %v\n", ds.Name, n, dim, ds.Labels)
	fmt.Printf("second cluster near 100: %.0f\n", ds.X.At(5, 0))
	// Output:
	// gmm: 6 × 2, labels [0 0 0 1 1 1]
	// second cluster near 100: 100
}

func ExampleLookup() {
	spec, _ := datasets.Lookup("mnist")
	fmt.Printf("%s: %d × %d, %d classes, %d files\n", spec.Name, spec.N, spec.Dim, spec.Classes, len(spec.Files))
	// Output:
	// mnist: 60000 × 784, 10 classes, 2 files
}

// The material data: people's votes on which of two materials looks more
// like a reference, one training triplet per vote.
func ExampleLoadComparisons() {
	c, err := datasets.LoadComparisons("material")
	if err != nil {
		fmt.Println(err) // the files are in $OE_DATA, or downloaded
		return
	}
	train := c.Triplets(c.Train, datasets.EachVote)
	q := c.Train[0]
	fmt.Printf("%d materials, %d training votes\n", len(c.Names), train.Len())
	fmt.Printf("is %s or %s more like %s? %d to %d\n", c.Names[q.A], c.Names[q.B], c.Names[q.Ref], q.ForA, q.ForB)
}
