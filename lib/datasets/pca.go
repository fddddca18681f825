package datasets

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/parallel"
)

// ProjectPCA returns the n × k coordinates of the rows of x on its top k
// principal components: the rows are centred on their mean and multiplied by
// the k leading eigenvectors of the sample covariance, in order of decreasing
// variance. Each component's sign makes its largest-magnitude entry
// positive, so the result is deterministic.
//
// It computes the covariance itself, with a cache-blocked parallel kernel,
// instead of calling stat.PC: stat.PC takes the SVD of the whole centred
// n × dim matrix, which for MNIST (60,000 × 784) is far slower than forming
// the 784 × 784 covariance and decomposing that. The two agree up to the
// signs of the components (see the tests).
func ProjectPCA(x *mat.Dense, k int) (*mat.Dense, error) {
	n, d := x.Dims()
	if k < 1 || k > d {
		return nil, fmt.Errorf("datasets: PCA to %d components of %d-dimensional data: want 1..%d", k, d, d)
	}
	if n < 2 {
		return nil, fmt.Errorf("datasets: PCA needs at least 2 points, have %d", n)
	}
	mean := columnMeans(x)
	gram := centredGram(x, mean)
	cov := mat.NewSymDense(d, nil)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			cov.SetSym(i, j, gram[i*d+j]/float64(n-1))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return nil, fmt.Errorf("datasets: PCA: eigendecomposition of the %d × %d covariance failed", d, d)
	}
	var all mat.Dense
	eig.VectorsTo(&all)
	// EigenSym orders eigenvalues ascending: the top k are the last columns.
	basis := mat.NewDense(d, k, nil)
	for c := 0; c < k; c++ {
		col := d - 1 - c
		sign := 1.0
		best := 0.0
		for i := 0; i < d; i++ {
			if v := all.At(i, col); math.Abs(v) > best {
				best, sign = math.Abs(v), math.Copysign(1, v)
			}
		}
		for i := 0; i < d; i++ {
			basis.Set(i, c, sign*all.At(i, col))
		}
	}
	var y mat.Dense
	y.Mul(x, basis)
	shift := mat.NewVecDense(k, nil)
	shift.MulVec(basis.T(), mat.NewVecDense(d, mean))
	for i := 0; i < n; i++ {
		row := y.RawRowView(i)
		for c := range row {
			row[c] -= shift.AtVec(c)
			if math.IsNaN(row[c]) || math.IsInf(row[c], 0) {
				return nil, fmt.Errorf("datasets: PCA produced a non-finite coordinate at point %d", i)
			}
		}
	}
	return &y, nil
}

func columnMeans(x *mat.Dense) []float64 {
	n, d := x.Dims()
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	return mean
}

const (
	// panelRows rows of centred data are packed column-major at a time so
	// that a 4-column slice of the panel stays in cache for its tiles.
	panelRows = 128
	// tile is the side of the square block of the Gram matrix one kernel
	// call accumulates in registers.
	tile = 4
)

// centredGram returns the upper triangle of Σᵢ (xᵢ−μ)(xᵢ−μ)ᵀ as a row-major
// d × d slice (the lower triangle is unspecified). The tile rows are dealt
// into stripes (tile row ib to stripe ib mod stripes), one task each, which
// packs every panel once for its tile rows; a tile adds the panels in row
// order whichever stripe owns it, so the result does not depend on the
// number of stripes (GOMAXPROCS).
func centredGram(x *mat.Dense, mean []float64) []float64 {
	n, d := x.Dims()
	dp := (d + tile - 1) / tile * tile // padded columns are zero
	gram := make([]float64, dp*dp)
	blocks := dp / tile
	stripes := min(parallel.Workers(0), blocks)
	parallel.For(0, stripes, func(_, stripe int) {
		panel := make([]float64, dp*panelRows)
		for r0 := 0; r0 < n; r0 += panelRows {
			m := min(panelRows, n-r0)
			for r := 0; r < m; r++ {
				for j, v := range x.RawRowView(r0 + r) {
					panel[j*panelRows+r] = v - mean[j]
				}
			}
			for ib := stripe; ib < blocks; ib += stripes {
				for jb := ib; jb < blocks; jb++ {
					gramTile(gram, dp, panel, m, ib*tile, jb*tile)
				}
			}
		}
	})
	out := make([]float64, d*d)
	for i := 0; i < d; i++ {
		copy(out[i*d:(i+1)*d], gram[i*dp:i*dp+d])
	}
	return out
}

// gramTile adds to gram[i..i+3][j..j+3] the products of panel columns
// i..i+3 and j..j+3 over the panel's first m rows.
func gramTile(gram []float64, dp int, panel []float64, m, i, j int) {
	col := func(c int) []float64 { return panel[c*panelRows : c*panelRows+m] }
	a0, a1, a2, a3 := col(i), col(i+1), col(i+2), col(i+3)
	b0, b1, b2, b3 := col(j), col(j+1), col(j+2), col(j+3)
	var s00, s01, s02, s03, s10, s11, s12, s13 float64
	var s20, s21, s22, s23, s30, s31, s32, s33 float64
	for r := range a0 {
		y0, y1, y2, y3 := b0[r], b1[r], b2[r], b3[r]
		x0 := a0[r]
		s00 += x0 * y0
		s01 += x0 * y1
		s02 += x0 * y2
		s03 += x0 * y3
		x1 := a1[r]
		s10 += x1 * y0
		s11 += x1 * y1
		s12 += x1 * y2
		s13 += x1 * y3
		x2 := a2[r]
		s20 += x2 * y0
		s21 += x2 * y1
		s22 += x2 * y2
		s23 += x2 * y3
		x3 := a3[r]
		s30 += x3 * y0
		s31 += x3 * y1
		s32 += x3 * y2
		s33 += x3 * y3
	}
	g := gram[i*dp+j:]
	g[0] += s00
	g[1] += s01
	g[2] += s02
	g[3] += s03
	g = gram[(i+1)*dp+j:]
	g[0] += s10
	g[1] += s11
	g[2] += s12
	g[3] += s13
	g = gram[(i+2)*dp+j:]
	g[0] += s20
	g[1] += s21
	g[2] += s22
	g[3] += s23
	g = gram[(i+3)*dp+j:]
	g[0] += s30
	g[1] += s31
	g[2] += s32
	g[3] += s33
}
