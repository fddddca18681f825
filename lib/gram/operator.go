package gram

import "gonum.org/v1/gonum/mat"

// lowRankPlusSparse is the symmetric operator XXᵀ + S, where S is supported
// on a pattern's edges (both triangles) and diagonal: the matrix a gradient
// step makes of a rank-d Gram matrix. Its product with an n×c block costs
// O(n·d·c) for the low-rank part and O(edges·c) for the sparse part, against
// O(n²·c) for a dense K.
type lowRankPlusSparse struct {
	x       *mat.Dense // n×d factor of the low-rank part
	p       *pattern
	off     []float64 // S_ab = S_ba = off[e] for edge e = {a, b}
	diag    []float64 // S_aa
	threads int
}

// Size returns n.
func (o *lowRankPlusSparse) Size() int { return o.p.n }

// MulTo sets dst = (XXᵀ + S)·src.
func (o *lowRankPlusSparse) MulTo(dst, src *mat.Dense) {
	var xt mat.Dense
	xt.Mul(o.x.T(), src)
	dst.Mul(o.x, &xt)
	_, c := src.Dims()
	d, s := dst.RawMatrix(), src.RawMatrix()
	const rowsPerChunk = 128
	parallelChunks(o.threads, numChunks(o.p.n, rowsPerChunk), func(ch int) {
		from, to := chunkRange(ch, rowsPerChunk, o.p.n)
		for a := from; a < to; a++ {
			out := d.Data[a*d.Stride : a*d.Stride+c]
			own := s.Data[a*s.Stride : a*s.Stride+c]
			axpy(o.diag[a], own, out)
			for x := o.p.adjPtr[a]; x < o.p.adjPtr[a+1]; x++ {
				b := int(o.p.adjCol[x])
				axpy(o.off[o.p.adjEdge[x]], s.Data[b*s.Stride:b*s.Stride+c], out)
			}
		}
	})
}

// axpy adds alpha·x to y (len(y) ≥ len(x)); unrolled by four because it is
// the inner loop of every sparse product.
func axpy(alpha float64, x, y []float64) {
	y = y[:len(x)]
	l := 0
	for ; l+4 <= len(x); l += 4 {
		xs, ys := x[l:l+4:l+4], y[l:l+4:l+4]
		ys[0] += alpha * xs[0]
		ys[1] += alpha * xs[1]
		ys[2] += alpha * xs[2]
		ys[3] += alpha * xs[3]
	}
	for ; l < len(x); l++ {
		y[l] += alpha * x[l]
	}
}
