package gram

import (
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/asm"
	"github.com/oe-lab/oe/lib/internal/parallel"
)

// lowRankPlusSparse is the symmetric operator XXᵀ + S, where S is supported
// on a pattern's edges (both triangles) and diagonal: the matrix a gradient
// step makes of a rank-d Gram matrix. Its product with an n×c block costs
// O(n·d·c) for the low-rank part and O(edges·c) for the sparse part, against
// O(n²·c) for a dense K.
type lowRankPlusSparse struct {
	x    *mat.Dense // n×d factor of the low-rank part
	p    *pattern
	diag []float64 // S_aa
	// adjVal[x] = S_ab for the adjacency entry x = (a, b) of the pattern:
	// the edge values laid out in the order the product reads them, so the
	// inner loop does not look up adjEdge on every one of its many passes.
	adjVal  []float64
	threads int
	xt      mat.Dense // Xᵀ·src, reused between products
}

// newLowRankPlusSparse returns the operator XXᵀ + S with S_ab = S_ba = off[e]
// for the edge e = {a, b} and S_aa = diag[a]. buf, when it holds at least
// 2·edges values, is used for the operator's copy of off (callers that build
// one operator per step keep it to avoid reallocating).
func newLowRankPlusSparse(x *mat.Dense, p *pattern, off, diag []float64, threads int, buf []float64) *lowRankPlusSparse {
	vals := buf
	if len(vals) < len(p.adjEdge) {
		vals = make([]float64, len(p.adjEdge))
	}
	vals = vals[:len(p.adjEdge)]
	const perChunk = 1 << 16
	parallel.ForChunks(threads, len(vals), perChunk, func(_, from, to int) {
		for i, e := range p.adjEdge[from:to] {
			vals[from+i] = off[e]
		}
	})
	return &lowRankPlusSparse{x: x, p: p, diag: diag, adjVal: vals, threads: threads}
}

// Size returns n.
func (o *lowRankPlusSparse) Size() int { return o.p.n }

// MulTo sets dst = (XXᵀ + S)·src. Each row of dst is computed by one
// goroutine in a fixed order (diagonal, then the row's neighbours four at a
// time), so the result does not depend on the number of threads.
func (o *lowRankPlusSparse) MulTo(dst, src *mat.Dense) {
	_, c := src.Dims()
	o.xt.Reset()
	o.xt.Mul(o.x.T(), src)
	dst.Mul(o.x, &o.xt)
	d, s := dst.RawMatrix(), src.RawMatrix()
	row := func(b int32) []float64 { return s.Data[int(b)*s.Stride : int(b)*s.Stride+c] }
	ptr, col, val := o.p.adjPtr, o.p.adjCol, o.adjVal
	const rowsPerChunk = 64
	parallel.ForChunks(o.threads, o.p.n, rowsPerChunk, func(_, from, to int) {
		for a := from; a < to; a++ {
			out := d.Data[a*d.Stride : a*d.Stride+c]
			floats.AddScaled(out, o.diag[a], s.Data[a*s.Stride:a*s.Stride+c])
			x, end := ptr[a], ptr[a+1]
			x += int64(asm.Axpy4Rows(val[x:end], col[x:end], s.Data, s.Stride, out))
			for ; x < end; x++ {
				floats.AddScaled(out, val[x], row(col[x]))
			}
		}
	})
}
