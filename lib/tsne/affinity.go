package tsne

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"

	"github.com/oe-lab/oe/lib/internal/parallel"
)

// affinities is the symmetric joint distribution P in compressed sparse row
// form: the entries of row i are col[rowPtr[i]:rowPtr[i+1]] (ascending) with
// values val[...]. All values sum to 1.
type affinities struct {
	rowPtr []int
	col    []int32
	val    []float64
}

// Calibration limits of the perplexity bisection, those of the reference code.
const (
	entropyTol    = 1e-5
	maxBisections = 200
)

// nearestNeighbours returns, for every row of x, its k nearest other rows
// (squared Euclidean distance) sorted by distance and then index: idx[i*k:(i+1)*k]
// and the matching squared distances dist[i*k:(i+1)*k].
func nearestNeighbours(x blas64.General, k, threads int) (idx []int32, dist []float64) {
	n := x.Rows
	idx = make([]int32, n*k)
	dist = make([]float64, n*k)
	newHeap := func() *neighbourHeap {
		return &neighbourHeap{idx: make([]int32, 0, k), dist: make([]float64, 0, k)}
	}
	parallel.ForWith(threads, parallel.Chunks(n, rowsPerTask), newHeap, func(h *neighbourHeap, c int) {
		lo, hi := parallel.Chunk(c, rowsPerTask, n)
		for i := lo; i < hi; i++ {
			h.idx, h.dist = h.idx[:0], h.dist[:0]
			xi := x.Data[i*x.Stride : i*x.Stride+x.Cols]
			for j := 0; j < n; j++ {
				if j == i {
					continue
				}
				xj := x.Data[j*x.Stride : j*x.Stride+x.Cols]
				if len(h.idx) < k {
					h.push(int32(j), sqDist(xi, xj, math.Inf(1)))
					continue
				}
				// The partial sum only grows, so a candidate is dropped as soon
				// as it exceeds the current k-th distance.
				if d := sqDist(xi, xj, h.dist[0]); d < h.dist[0] {
					h.replaceTop(int32(j), d)
				}
			}
			h.sortAscending(idx[i*k:(i+1)*k], dist[i*k:(i+1)*k])
		}
	})
	return idx, dist
}

// sqDist is ‖a−b‖², except that it may stop early and return a value above
// bound once the partial sum exceeds bound.
func sqDist(a, b []float64, bound float64) float64 {
	var s float64
	for c := 0; c < len(a); c += 8 {
		end := min(c+8, len(a))
		for t := c; t < end; t++ {
			v := a[t] - b[t]
			s += v * v
		}
		if s > bound {
			return s
		}
	}
	return s
}

// neighbourHeap is a max-heap on (distance, index) holding the best candidates
// seen so far; its root is the current k-th nearest neighbour. Candidates are
// scanned in increasing index order and replace the root only when strictly
// closer, so ties are broken towards the smaller index.
type neighbourHeap struct {
	idx  []int32
	dist []float64
}

func (h *neighbourHeap) less(a, b int) bool {
	if h.dist[a] != h.dist[b] {
		return h.dist[a] < h.dist[b]
	}
	return h.idx[a] < h.idx[b]
}

func (h *neighbourHeap) swap(a, b int) {
	h.idx[a], h.idx[b] = h.idx[b], h.idx[a]
	h.dist[a], h.dist[b] = h.dist[b], h.dist[a]
}

func (h *neighbourHeap) push(j int32, d float64) {
	h.idx = append(h.idx, j)
	h.dist = append(h.dist, d)
	for c := len(h.idx) - 1; c > 0; {
		p := (c - 1) / 2
		if !h.less(p, c) {
			break
		}
		h.swap(p, c)
		c = p
	}
}

func (h *neighbourHeap) replaceTop(j int32, d float64) {
	h.idx[0], h.dist[0] = j, d
	for p := 0; ; {
		c := 2*p + 1
		if c >= len(h.idx) {
			return
		}
		if c+1 < len(h.idx) && h.less(c, c+1) {
			c++
		}
		if !h.less(p, c) {
			return
		}
		h.swap(p, c)
		p = c
	}
}

// sortAscending writes the heap's contents into idx and dist ordered by
// (distance, index).
func (h *neighbourHeap) sortAscending(idx []int32, dist []float64) {
	order := make([]int, len(h.idx))
	for t := range order {
		order[t] = t
	}
	slices.SortFunc(order, func(a, b int) int {
		switch {
		case h.less(a, b):
			return -1
		case h.less(b, a):
			return 1
		}
		return 0
	})
	for t, o := range order {
		idx[t], dist[t] = h.idx[o], h.dist[o]
	}
}

// conditionalRow fills p with the Gaussian conditional distribution p(j|i)
// over neighbours at squared distances dist (ascending), with the bandwidth
// chosen by bisection so that exp(entropy) equals perplexity.
func conditionalRow(dist []float64, perplexity float64, p []float64) {
	target := math.Log(perplexity)
	// Shifting by the nearest distance leaves the normalised weights
	// unchanged and keeps exp from underflowing for far-away rows.
	d0 := dist[0]
	var mean float64
	for _, d := range dist {
		mean += d - d0
	}
	mean /= float64(len(dist))
	beta := 1.0
	if mean > 0 {
		beta = 1 / mean
	}
	lo, hi := 0.0, math.Inf(1)
	var sum float64
	for it := 0; it < maxBisections; it++ {
		sum = 0
		var weighted float64
		for t, d := range dist {
			s := d - d0
			p[t] = math.Exp(-beta * s)
			sum += p[t]
			weighted += s * p[t]
		}
		// sum ≥ 1 because the nearest neighbour has weight exp(0).
		h := math.Log(sum) + beta*weighted/sum
		if math.Abs(h-target) < entropyTol {
			break
		}
		if h > target {
			lo = beta
			if math.IsInf(hi, 1) {
				beta *= 2
			} else {
				beta = (beta + hi) / 2
			}
		} else {
			hi = beta
			beta = (beta + lo) / 2
		}
	}
	for t := range p {
		p[t] /= sum
	}
}

// jointAffinities computes the symmetric P from the k nearest neighbours of
// every row of x: p_ij = (p(j|i) + p(i|j)) / Σ, zero outside the union of the
// neighbour graphs.
func jointAffinities(x blas64.General, k int, perplexity float64, threads int) affinities {
	n := x.Rows
	nbr, dist := nearestNeighbours(x, k, threads)
	cond := make([]float64, n*k)
	parallel.ForChunks(threads, n, rowsPerTask, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			conditionalRow(dist[i*k:(i+1)*k], perplexity, cond[i*k:(i+1)*k])
		}
	})

	// Row i of P holds i's own neighbours plus every point that has i as a
	// neighbour; gather both, then sort each row and merge the pairs that
	// appear in both directions.
	count := make([]int, n+1)
	for i := 0; i < n; i++ {
		count[i+1] += k
		for _, j := range nbr[i*k : (i+1)*k] {
			count[j+1]++
		}
	}
	for i := 0; i < n; i++ {
		count[i+1] += count[i]
	}
	fill := slices.Clone(count[:n])
	col := make([]int32, count[n])
	val := make([]float64, count[n])
	for i := 0; i < n; i++ {
		for t, j := range nbr[i*k : (i+1)*k] {
			v := cond[i*k+t]
			col[fill[i]], val[fill[i]] = j, v
			fill[i]++
			col[fill[j]], val[fill[j]] = int32(i), v
			fill[j]++
		}
	}

	rowPtr := make([]int, n+1)
	merged := make([]int, n) // length of row i after merging
	parallel.ForChunks(threads, n, rowsPerTask, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			merged[i] = mergeRow(col[count[i]:count[i+1]], val[count[i]:count[i+1]])
		}
	})
	var total float64
	out := 0
	for i := 0; i < n; i++ {
		rowPtr[i] = out
		start := count[i]
		for t := 0; t < merged[i]; t++ {
			col[out], val[out] = col[start+t], val[start+t]
			total += val[out]
			out++
		}
	}
	rowPtr[n] = out
	col, val = col[:out:out], val[:out:out]
	for t := range val {
		val[t] /= total
	}
	return affinities{rowPtr: rowPtr, col: col, val: val}
}

// mergeRow sorts one row's (col, val) pairs by column, adds the values of
// equal columns, and returns the number of distinct columns now at the front.
func mergeRow(col []int32, val []float64) int {
	order := make([]int, len(col))
	for t := range order {
		order[t] = t
	}
	// Stable order keeps the addition order, hence the rounding, fixed.
	slices.SortStableFunc(order, func(a, b int) int { return int(col[a]) - int(col[b]) })
	c := slices.Clone(col)
	v := slices.Clone(val)
	m := 0
	for _, o := range order {
		if m > 0 && col[m-1] == c[o] {
			val[m-1] += v[o]
			continue
		}
		col[m], val[m] = c[o], v[o]
		m++
	}
	return m
}
