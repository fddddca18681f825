package datasets

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/param"
)

// Dataset is a loaded dataset: n points as the rows of X.
type Dataset struct {
	Name        string
	X           *mat.Dense // n × dim points
	Labels      []int      // one per point; nil when the dataset has none
	Description string     // the Spec's description plus what Load did
}

// Options selects what Load returns.
type Options struct {
	// N is the number of points: 0 means the paper's size (all points, except
	// Birch1 and Birch3: 10,000, and the synthetic sets' defaults); otherwise
	// a seeded subsample of N points without replacement (an error if N
	// exceeds the points available), or N generated points for gmm and uniform.
	N int
	// Dim is the dimension of the synthetic sets (gmm, uniform); 0 means
	// their default, 2. It is an error for the other sets.
	Dim int
	// PCA, when positive, projects the points onto their top PCA principal
	// components, fitted on all points before subsampling.
	PCA int
	// Seed drives subsampling and synthetic generation.
	Seed uint64
}

// Load returns the named dataset, reading (and if needed downloading) its
// files, verifying their checksums, then applying PCA and subsampling as opt
// asks.
func Load(name string, opt Options) (*Dataset, error) {
	spec, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if spec.Kind != KindPoints {
		return nil, fmt.Errorf("datasets: %s is a dataset of %s, not points: load it with LoadComparisons", spec.Name, spec.Kind)
	}
	if opt.N < 0 || opt.Dim < 0 || opt.PCA < 0 {
		return nil, fmt.Errorf("datasets: %s: negative option in %+v", spec.Name, opt)
	}
	var (
		x      *mat.Dense
		labels []int
		notes  []string
	)
	if spec.Synthetic {
		n, dim := param.OrDefault(opt.N, spec.N), param.OrDefault(opt.Dim, spec.Dim)
		x, labels = spec.generate(n, dim, opt.Seed)
		notes = append(notes, fmt.Sprintf("%d points in %d dimensions generated with seed %d", n, dim, opt.Seed))
	} else {
		if opt.Dim != 0 {
			return nil, fmt.Errorf("datasets: %s: Options.Dim = %d applies only to the synthetic sets gmm and uniform (reduce dimension with PCA)", spec.Name, opt.Dim)
		}
		if opt.N > spec.Available {
			return nil, fmt.Errorf("datasets: %s: %d points asked for, the files hold %d", spec.Name, opt.N, spec.Available)
		}
		paths, err := obtainAll(spec.Files)
		if err != nil {
			return nil, err
		}
		if x, labels, err = spec.load(paths); err != nil {
			return nil, err
		}
		if x, labels, err = spec.pool(x, labels, param.OrDefault(opt.N, spec.N)); err != nil {
			return nil, err
		}
	}
	if opt.PCA > 0 {
		if x, err = ProjectPCA(x, opt.PCA); err != nil {
			return nil, fmt.Errorf("datasets: %s: %w", spec.Name, err)
		}
		notes = append(notes, fmt.Sprintf("projected onto its top %d principal components", opt.PCA))
	}
	if !spec.Synthetic {
		avail, _ := x.Dims()
		n := param.OrDefault(opt.N, spec.N)
		if n > avail {
			return nil, fmt.Errorf("datasets: %s: %d points asked for, the files hold %d", spec.Name, n, avail)
		}
		if n < avail {
			x, labels = subsample(x, labels, n, opt.Seed)
			notes = append(notes, fmt.Sprintf("seeded subsample (seed %d) of %d of its %d points", opt.Seed, n, avail))
		}
	}
	desc := spec.Description
	for _, s := range notes {
		desc += "; " + s
	}
	return &Dataset{Name: spec.Name, X: x, Labels: labels, Description: desc}, nil
}

// pool returns the points that n points are drawn from: the train set (the
// first spec.Train) when it holds n, else all of x; an error when the files
// hold fewer than a train set.
func (spec Spec) pool(x *mat.Dense, labels []int, n int) (*mat.Dense, []int, error) {
	rows, dim := x.Dims()
	if spec.Train == 0 || n > spec.Train {
		return x, labels, nil
	}
	if rows < spec.Train {
		return nil, nil, fmt.Errorf("datasets: %s: the files hold %d points, fewer than its train set of %d", spec.Name, rows, spec.Train)
	}
	if labels != nil {
		labels = labels[:spec.Train:spec.Train]
	}
	return mat.DenseCopyOf(x.Slice(0, spec.Train, 0, dim)), labels, nil
}

// subsample keeps n of the rows of x (and their labels), drawn without
// replacement by a partial Fisher–Yates shuffle seeded with seed, in their
// original order.
func subsample(x *mat.Dense, labels []int, n int, seed uint64) (*mat.Dense, []int) {
	total, dim := x.Dims()
	rng := rand.New(rand.NewPCG(seed, 0x5ab5))
	perm := make([]int, total)
	for i := range perm {
		perm[i] = i
	}
	for i := 0; i < n; i++ {
		j := i + rng.IntN(total-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	keep := perm[:n]
	slices.Sort(keep)
	out := mat.NewDense(n, dim, nil)
	var outLabels []int
	if labels != nil {
		outLabels = make([]int, n)
	}
	for r, i := range keep {
		out.SetRow(r, x.RawRowView(i))
		if labels != nil {
			outLabels[r] = labels[i]
		}
	}
	return out, outLabels
}
