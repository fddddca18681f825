package gram

import (
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/asm"
	"github.com/oe-lab/oe/lib/internal/parallel"
)

// cacheBlockBytes is how much of src a block of neighbours holds in the
// sparse product, and blockedRowsPerChunk how many rows share each block's
// reads: a quarter of a recent server core's private cache (2 MB), so that
// the block, the rows being summed and the neighbour lists fit beside it.
const (
	cacheBlockBytes     = 1 << 19
	blockedRowsPerChunk = 512
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
	prod    denseProduct
	// blockBytes is cacheBlockBytes but in tests, which make blocks small
	// to cut rows' neighbour lists into many runs.
	blockBytes int
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
	return &lowRankPlusSparse{x: x, p: p, diag: diag, adjVal: vals, threads: threads, blockBytes: cacheBlockBytes,
		prod: denseProduct{threads: parallel.Workers(threads)}}
}

// Size returns n.
func (o *lowRankPlusSparse) Size() int { return o.p.n }

// MulTo sets dst = (XXᵀ + S)·src. Each row of dst is computed by one
// goroutine in a fixed order (diagonal, then the row's neighbours four at a
// time, then the neighbours left over), so the result does not depend on the
// number of threads.
//
// Where src is larger than a core's cache the neighbour rows are read in
// blocks of neighbours (cacheBlockBytes of src each): a chunk of rows adds
// the neighbours of the first block, then those of the second, and so on.
// A row's neighbours are sorted, so the blocks cut its list into consecutive
// runs and its order of summation is the same as unblocked; each block's
// rows of src stay in cache for the whole chunk instead of coming from
// memory (or the shared cache) for every row (n = 7,291, 75 columns: 0.22
// → 0.13 ns an entry and column, as fast as where src fits in cache).
func (o *lowRankPlusSparse) MulTo(dst, src *mat.Dense) {
	_, c := src.Dims()
	o.xt.Reset()
	o.prod.mul(&o.xt, o.x, true, src)
	o.prod.mul(dst, o.x, false, &o.xt)
	d, s := dst.RawMatrix(), src.RawMatrix()
	row := func(b int32) []float64 { return s.Data[int(b)*s.Stride : int(b)*s.Stride+c] }
	ptr, col, val := o.p.adjPtr, o.p.adjCol, o.adjVal
	n := o.p.n
	blockRows := max(1, o.blockBytes/(8*max(c, 1)))
	blocks := (n + blockRows - 1) / blockRows
	rowsPerChunk := 64
	if blocks > 1 {
		rowsPerChunk = blockedRowsPerChunk
	}
	parallel.ForChunks(o.threads, n, rowsPerChunk, func(_, from, to int) {
		var at [blockedRowsPerChunk]int64 // next neighbour of each row, across blocks
		for a := from; a < to; a++ {
			floats.AddScaled(d.Data[a*d.Stride:a*d.Stride+c], o.diag[a], s.Data[a*s.Stride:a*s.Stride+c])
			at[a-from] = ptr[a]
		}
		for k := 1; k <= blocks; k++ {
			limit := int32(min(k*blockRows, n))
			for a := from; a < to; a++ {
				x, end := at[a-from], ptr[a+1]
				// Whole groups of four only, as unblocked: a group whose
				// first neighbour is in this block is taken with it, and
				// the last block takes all that are left.
				stop := x + (end-x)&^3
				if k < blocks {
					stop = x
					for stop+4 <= end && col[stop] < limit {
						stop += 4
					}
				}
				if stop > x {
					out := d.Data[a*d.Stride : a*d.Stride+c]
					asm.Axpy4Rows(val[x:stop], col[x:stop], s.Data, s.Stride, out)
				}
				at[a-from] = stop
			}
		}
		for a := from; a < to; a++ {
			out := d.Data[a*d.Stride : a*d.Stride+c]
			for x := at[a-from]; x < ptr[a+1]; x++ {
				floats.AddScaled(out, val[x], row(col[x]))
			}
		}
	})
}
