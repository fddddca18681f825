package datasets

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// loadPoints reads a whitespace-separated text file of dim columns.
func loadPoints(dim int) func(paths []string) (*mat.Dense, []int, error) {
	return func(paths []string) (*mat.Dense, []int, error) {
		t, err := readTable(paths[0], 0, dim)
		if err != nil {
			return nil, nil, err
		}
		if t.rows == 0 {
			return nil, nil, fmt.Errorf("datasets: %s: no points", paths[0])
		}
		return mat.NewDense(t.rows, dim, t.vals), nil, nil
	}
}

// loadPointsAndLabels reads points as loadPoints does and a second file with
// one integer label per line, one line per point.
func loadPointsAndLabels(dim int) func(paths []string) (*mat.Dense, []int, error) {
	points := loadPoints(dim)
	return func(paths []string) (*mat.Dense, []int, error) {
		x, _, err := points(paths)
		if err != nil {
			return nil, nil, err
		}
		t, err := readTable(paths[1], 0, 1)
		if err != nil {
			return nil, nil, err
		}
		if n, _ := x.Dims(); t.rows != n {
			return nil, nil, fmt.Errorf("datasets: %s has %d labels for the %d points of %s", paths[1], t.rows, n, paths[0])
		}
		labels, err := intLabels(paths[1], t.vals, t.lines, nil)
		return x, labels, err
	}
}

// loadCSVWithLabel reads a comma-separated file of dim features followed by
// an integer label in [lo, hi] (CHAR: digits.csv.gz; COVTYPE: covtype.data.gz).
func loadCSVWithLabel(dim, lo, hi int) func(paths []string) (*mat.Dense, []int, error) {
	return func(paths []string) (*mat.Dense, []int, error) {
		t, err := readTable(paths[0], ',', dim+1)
		if err != nil {
			return nil, nil, err
		}
		if t.rows == 0 {
			return nil, nil, fmt.Errorf("datasets: %s: no points", paths[0])
		}
		x := mat.NewDense(t.rows, dim, nil)
		raw := make([]float64, t.rows)
		for i := 0; i < t.rows; i++ {
			row := t.vals[i*(dim+1) : (i+1)*(dim+1)]
			x.SetRow(i, row[:dim])
			raw[i] = row[dim]
		}
		labels, err := intLabels(paths[0], raw, t.lines, &[2]int{lo, hi})
		return x, labels, err
	}
}

// intLabels converts label values to ints, checking they are integers and,
// when bounds is given, within [bounds[0], bounds[1]]; lines[i] is the file
// line of vals[i].
func intLabels(path string, vals []float64, lines []int, bounds *[2]int) ([]int, error) {
	labels := make([]int, len(vals))
	for i, v := range vals {
		l, err := integral(v)
		if err != nil {
			return nil, fmt.Errorf("datasets: %s:%d: label: %w", path, lines[i], err)
		}
		if bounds != nil && (l < bounds[0] || l > bounds[1]) {
			return nil, fmt.Errorf("datasets: %s:%d: label %d outside %d..%d", path, lines[i], l, bounds[0], bounds[1])
		}
		labels[i] = l
	}
	return labels, nil
}

// loadIDXImages reads MNIST-format train images (n × rows × cols) and labels
// (n), keeping raw grey levels as the authors' code did.
func loadIDXImages(paths []string) (*mat.Dense, []int, error) {
	img, err := readIDX(paths[0])
	if err != nil {
		return nil, nil, err
	}
	if len(img.dims) != 3 {
		return nil, nil, fmt.Errorf("datasets: %s: IDX images have sizes %v, want n × rows × cols", paths[0], img.dims)
	}
	lab, err := readIDX(paths[1])
	if err != nil {
		return nil, nil, err
	}
	if len(lab.dims) != 1 {
		return nil, nil, fmt.Errorf("datasets: %s: IDX labels have sizes %v, want n", paths[1], lab.dims)
	}
	n, dim := img.dims[0], img.dims[1]*img.dims[2]
	if lab.dims[0] != n {
		return nil, nil, fmt.Errorf("datasets: %s has %d labels for the %d images of %s", paths[1], lab.dims[0], n, paths[0])
	}
	if n == 0 || dim == 0 {
		return nil, nil, fmt.Errorf("datasets: %s: empty image array %v", paths[0], img.dims)
	}
	vals := make([]float64, n*dim)
	for i, b := range img.data {
		vals[i] = float64(b)
	}
	labels := make([]int, n)
	for i, b := range lab.data {
		labels[i] = int(b)
	}
	return mat.NewDense(n, dim, vals), labels, nil
}

// uspsDim is the number of pixels of a 16×16 USPS image.
const uspsDim = 256

// loadUSPS reads the LIBSVM usps files (the train set, then the test set),
// one after the other, and maps them as torchvision's USPS does: labels
// 1..10 become 0..9, and each value v in [-1, 1] becomes the grey level
// ⌊(v+1)/2·255⌋, computed in float32 like torchvision's numpy code.
func loadUSPS(paths []string) (*mat.Dense, []int, error) {
	var vals []float64
	var labels []int
	for _, p := range paths {
		d, err := readLibSVM(p, uspsDim)
		if err != nil {
			return nil, nil, err
		}
		if d.rows == 0 {
			return nil, nil, fmt.Errorf("datasets: %s: no points", p)
		}
		for i, l := range d.labels {
			if l < 1 || l > 10 {
				return nil, nil, fmt.Errorf("datasets: %s:%d: label %d outside 1..10", p, d.lines[i], l)
			}
			labels = append(labels, l-1)
		}
		for i, v := range d.vals {
			if v < -1 || v > 1 {
				return nil, nil, fmt.Errorf("datasets: %s:%d: value %v of index %d outside [-1, 1]", p, d.lines[i/uspsDim], v, i%uspsDim+1)
			}
			vals = append(vals, float64(uspsGrey(v)))
		}
	}
	return mat.NewDense(len(labels), uspsDim, vals), labels, nil
}

// uspsGrey maps v ∈ [-1, 1] to 0..255 with float32 rounding at each step and
// truncation, as numpy's ((v + 1) / 2 * 255).astype(uint8) on float32 does.
func uspsGrey(v float32) uint8 {
	half := float32(v+1) / 2
	return uint8(float32(half * 255))
}
