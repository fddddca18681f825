package gram

import (
	"fmt"
	"math"
	"slices"

	"github.com/oe-lab/oe/lib/internal/parallel"
	"github.com/oe-lab/oe/lib/triplets"
)

// pattern is the sparsity structure every gradient, Adam moment and step
// shares: the unordered pairs {a, b} that occur as (i, j) or (i, k) in some
// triplet (the "edges"), plus the diagonal.
//
// The gradient of a triplet loss ℓ(d_ij, d_ik), d_ab = K_aa − 2K_ab + K_bb, is
// the graph Laplacian Σ_e w_e (e_a − e_b)(e_a − e_b)ᵀ with edge weights
// w_e = Σ ∂ℓ/∂d over the distances that use edge e. Each triplet t owns two
// coefficient slots, 2t for ∂ℓ/∂d_ij and 2t+1 for ∂ℓ/∂d_ik, stored edge by
// edge: the objective writes slot s at coefAt[s], so that an edge's slots
// lie side by side, in increasing order, and the weights are summed in
// parallel, without write conflicts and in a fixed order (deterministic
// sums), from runs of memory. (Stored in triplet order, an edge's slots
// were gathered from all over the coefficients: at n = 7,291 and d = 50,
// 150 MB read at random, a tenth of a GNMDS epoch.)
type pattern struct {
	n int
	// lo[e] < hi[e] are the items of edge e; edges are sorted by (lo, hi).
	lo, hi []int32
	// coef[contribPtr[e]:contribPtr[e+1]] are the coefficients adding to
	// edge e, slot s of a triplet being coef[coefAt[s]].
	contribPtr []int64
	coefAt     []int32
	// Row a's neighbours adjCol[adjPtr[a]:adjPtr[a+1]], through edges adjEdge.
	adjPtr  []int64
	adjCol  []int32
	adjEdge []int32
}

// maxTriplets bounds m so that slot numbers 2t+1 fit in an int32.
const maxTriplets = math.MaxInt32 / 2

// newPattern builds the pattern of the triplets s over n items.
func newPattern(s *triplets.Set, n, threads int) (*pattern, error) {
	m := s.Len()
	if m > maxTriplets {
		return nil, fmt.Errorf("gram: %d triplets, at most %d supported", m, maxTriplets)
	}
	slots := 2 * m
	// Bucket the slots by the smaller item of their pair (counting sort),
	// with key hi<<32 | slot so that sorting a row groups equal pairs and
	// keeps slots in increasing order inside a pair.
	rowStart := make([]int64, n+1)
	pairOf := func(slot int) (int32, int32) {
		i, j, k := s.At(slot / 2)
		o := j
		if slot%2 == 1 {
			o = k
		}
		return min(i, o), max(i, o)
	}
	for slot := 0; slot < slots; slot++ {
		lo, _ := pairOf(slot)
		rowStart[lo+1]++
	}
	for a := 0; a < n; a++ {
		rowStart[a+1] += rowStart[a]
	}
	keys := make([]uint64, slots)
	fill := slices.Clone(rowStart[:n])
	for slot := 0; slot < slots; slot++ {
		lo, hi := pairOf(slot)
		keys[fill[lo]] = uint64(hi)<<32 | uint64(slot)
		fill[lo]++
	}
	const rowsPerChunk = 64
	uniq := make([]int64, n+1) // edges per row, then prefix sums
	parallel.ForChunks(threads, n, rowsPerChunk, func(_, from, to int) {
		for a := from; a < to; a++ {
			row := keys[rowStart[a]:rowStart[a+1]]
			slices.Sort(row)
			u := int64(0)
			for x := range row {
				if x == 0 || row[x]>>32 != row[x-1]>>32 {
					u++
				}
			}
			uniq[a+1] = u
		}
	})
	for a := 0; a < n; a++ {
		uniq[a+1] += uniq[a]
	}
	edges := int(uniq[n])
	p := &pattern{
		n:          n,
		lo:         make([]int32, edges),
		hi:         make([]int32, edges),
		contribPtr: make([]int64, edges+1),
		coefAt:     make([]int32, slots),
	}
	parallel.ForChunks(threads, n, rowsPerChunk, func(_, from, to int) {
		for a := from; a < to; a++ {
			e := uniq[a] - 1
			for x := rowStart[a]; x < rowStart[a+1]; x++ {
				key := keys[x]
				if x == rowStart[a] || key>>32 != keys[x-1]>>32 {
					e++
					p.lo[e] = int32(a)
					p.hi[e] = int32(key >> 32)
					p.contribPtr[e] = x
				}
				p.coefAt[key&math.MaxUint32] = int32(x)
			}
		}
	})
	p.contribPtr[edges] = int64(slots)

	// Both directions of every edge, for products with the step matrix.
	p.adjPtr = make([]int64, n+1)
	for e := 0; e < edges; e++ {
		p.adjPtr[p.lo[e]+1]++
		p.adjPtr[p.hi[e]+1]++
	}
	for a := 0; a < n; a++ {
		p.adjPtr[a+1] += p.adjPtr[a]
	}
	p.adjCol = make([]int32, 2*edges)
	p.adjEdge = make([]int32, 2*edges)
	at := slices.Clone(p.adjPtr[:n])
	for e := 0; e < edges; e++ {
		a, b := p.lo[e], p.hi[e]
		p.adjCol[at[a]], p.adjEdge[at[a]] = b, int32(e)
		at[a]++
		p.adjCol[at[b]], p.adjEdge[at[b]] = a, int32(e)
		at[b]++
	}
	return p, nil
}

// edges returns the number of edges.
func (p *pattern) edges() int { return len(p.lo) }

// gather sets w[e] to the sum of the coefficients of edge e (stored by
// coefAt), and
// diag[a] to Σ_{e ∋ a} w[e] + lambda: the gradient Laplacian(w) + λI, with
// off-diagonal entries −w.
func (p *pattern) gather(coef, w, diag []float64, lambda float64, threads int) {
	const edgesPerChunk = 4096
	parallel.ForChunks(threads, p.edges(), edgesPerChunk, func(_, from, to int) {
		for e := from; e < to; e++ {
			sum := 0.0
			for _, c := range coef[p.contribPtr[e]:p.contribPtr[e+1]] {
				sum += c
			}
			w[e] = sum
		}
	})
	// Each item's sum in the order of its adjacency list (its edges to
	// smaller items, then to larger ones, both by edge number) is the order
	// of a pass over the edges: one sequential pass whose sums stay in
	// cache, where summing row by row reads w at random (5 % of a GNMDS
	// epoch at n = 10,000, d = 10).
	for a := range diag {
		diag[a] = lambda
	}
	for e, v := range w {
		diag[p.lo[e]] += v
		diag[p.hi[e]] += v
	}
}
