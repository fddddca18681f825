package metrics

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Procrustes returns the Procrustes disparity between the ground truth and an embedding of the same n items
// (row i of each is item i), a number in [0, 1]: 0 when emb is truth up to translation, rotation, reflection
// and uniform scaling, and 1 when no such transformation explains any of truth's spread.
//
// The paper defines the error as min_U ‖XU − X*‖²_F over orthogonal U, with the lower-dimensional matrix
// padded by zero columns. Its authors computed it with scipy.spatial.procrustes (evaluate-OE,
// procrustes_disparity), and we follow that code because its value is scale-free and comparable across
// datasets: both matrices are centred and scaled to unit Frobenius norm, then emb is rotated (reflections
// allowed) and uniformly scaled to best fit truth. The disparity is the remaining squared Frobenius
// distance, which in closed form is 1 − (σ₁ + … + σ_r)², the σ being the singular values of AᵀB for the
// normalised matrices A (truth) and B (emb). Zero-padding the narrower matrix, as the authors do, only
// adds zero columns to AᵀB and leaves the σ unchanged, so the padding is implicit and the SVD is only
// d_truth × d_emb. The value is symmetric in its two arguments.
//
// Procrustes panics if truth and emb differ in their row counts (see the package comment). Errors: fewer than
// 2 rows, a matrix whose points all coincide (it has no shape to compare, as SciPy also refuses), and NaN or
// Inf entries.
func Procrustes(truth, emb *mat.Dense) (float64, error) {
	n, _ := truth.Dims()
	if ne, _ := emb.Dims(); ne != n {
		panic(fmt.Sprintf(rowMismatch, "Procrustes", "truth", n, "embedding", ne))
	}
	if n < 2 {
		return 0, fmt.Errorf("metrics: Procrustes: need at least 2 points, have %d", n)
	}
	a, err := standardise(truth, "truth")
	if err != nil {
		return 0, err
	}
	b, err := standardise(emb, "embedding")
	if err != nil {
		return 0, err
	}
	// m = aᵀb, d_truth × d_emb.
	m := blas64.General{Rows: a.Cols, Cols: b.Cols, Stride: b.Cols, Data: make([]float64, a.Cols*b.Cols)}
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, a, b, 0, m)
	var svd mat.SVD
	if !svd.Factorize(mat.NewDense(m.Rows, m.Cols, m.Data), mat.SVDNone) {
		return 0, errors.New("metrics: Procrustes: SVD did not converge")
	}
	var nuclear float64
	for _, s := range svd.Values(nil) {
		nuclear += s
	}
	// Rounding can push the value a hair outside [0, 1].
	return min(1, max(0, 1-nuclear*nuclear)), nil
}

// standardise returns a copy of x with centred columns, scaled to unit
// Frobenius norm.
func standardise(x *mat.Dense, what string) (blas64.General, error) {
	n, d := x.Dims()
	out := blas64.General{Rows: n, Cols: d, Stride: d, Data: make([]float64, n*d)}
	mean := make([]float64, d)
	for i := range n {
		for c, v := range x.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return out, fmt.Errorf("metrics: Procrustes: %s has %v at row %d, column %d", what, v, i, c)
			}
			out.Data[i*d+c] = v
			mean[c] += v
		}
	}
	for c := range mean {
		mean[c] /= float64(n)
	}
	var ss float64
	for i := range n {
		r := out.Data[i*d : i*d+d]
		for c := range r {
			r[c] -= mean[c]
			ss += r[c] * r[c]
		}
	}
	norm := math.Sqrt(ss)
	if !(norm > 0) || math.IsInf(norm, 0) {
		return out, fmt.Errorf("metrics: Procrustes: the %d points of %s all coincide (or overflow); there is no shape to compare", n, what)
	}
	for i := range out.Data {
		out.Data[i] /= norm
	}
	return out, nil
}
