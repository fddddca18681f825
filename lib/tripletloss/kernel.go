package tripletloss

import (
	"math"
	"math/bits"

	"github.com/oe-lab/oe/lib/internal/parallel"
	"github.com/oe-lab/oe/lib/optim"
	"github.com/oe-lab/oe/lib/triplets"
)

// lanes is the row padding: rows of the embedding and the gradient are
// stored with a stride that is a multiple of lanes, zero-filled beyond d, so
// that the vector loops need no tail handling. The padding stays zero: its
// gradient is s·(0−0) = 0, and Adam moves a parameter whose gradients are
// all zero by 0/(0+ε) = 0.
const lanes = 8

// The work of a step is cut into pieces whose sizes are constants, never
// derived from the thread count, and every sum is taken in an order fixed
// by them (see doc.go, "Determinism").
const (
	// block is the number of triplets whose distances and coefficients are
	// computed per pass: small enough that their rows stay in L1 between
	// the distance pass and the coefficient pass.
	block = 32
	// chunk is the number of triplets one task of the first pass handles;
	// the loss is summed per chunk, then over chunks in order.
	chunk = 2048
	// span is the number of triplets whose gradient is scattered at once:
	// it bounds the scratch space (the terms) whatever the batch size. A
	// batch is processed span by span, in order.
	span = 1 << 16
	// adamChunk is the number of parameters one task of the Adam step
	// updates.
	adamChunk = 1 << 14
	// maxRowBlocks bounds the number of row blocks, hence the bucket
	// counters kept per chunk.
	maxRowBlocks = 1024
	// lanes is the number of lanes of the lane scatter.
	laneCount = 16
)

// laneBytes bounds the memory of the lane scatter's gradient buffers: a
// kernel whose laneCount buffers would take more uses the row-block
// scatter. A variable so that tests can run both on small problems.
var laneBytes = 64 << 20

// headTerm is the gradient term of triplet (i, j, k) for row i:
// gᵢ += sᵢⱼ(xᵢ−xⱼ) + sᵢₖ(xᵢ−xₖ), with sᵢⱼ = 2∂ℓ/∂dᵢⱼ and sᵢₖ = 2∂ℓ/∂dᵢₖ.
// The assembly reads its fields at offsets 0, 4, 8, 12 and 16.
type headTerm struct {
	i, j, k  int32
	sij, sik float32
}

// tailTerm is the gradient term of a triplet for row r = j or k:
// gᵣ −= s(xᵢ−xᵣ), s = sᵢⱼ or sᵢₖ. The assembly reads its fields at offsets
// 0, 4 and 8.
type tailTerm struct {
	i, r int32
	s    float32
}

// kernel is the fused triplet-loss kernel: the embedding, its gradient, the
// optimiser and the scratch space of the gradient scatter, for one run.
type kernel struct {
	loss lossFunc
	// ridge is λ ≥ 0 of the term λ‖X‖²_F added to the loss (GNMDS-x's
	// trace regulariser, tr(XXᵀ) = ‖X‖²_F); 0 for the other methods.
	ridge   float64
	n, d    int
	threads int
	// stride is the row length in x and g: d rounded up to lanes.
	stride int
	// x is the n×d embedding, row-major with rows stride apart.
	x []float32
	// g is the gradient, laid out as x; all zero between steps.
	g    []float32
	adam *optim.Adam[float32]

	// lanes, when not nil, are the lane scatter's gradient buffers, laid
	// out as g, all zero between steps; lanes[0] is g.
	lanes [][]float32

	// The row-block scatter's state. rowShift sets the row blocks: row r
	// is in block r>>rowShift.
	rowShift uint
	blocks   int
	// heads[chunk·c:chunk·(c+1)] is chunk c's region of head terms, by row
	// block in triplet order; headEnds[blocks·c + rb] is where block rb's
	// terms end in the region (they start where rb−1's end, or at 0).
	heads    []headTerm
	headEnds []int32
	// tails[2·chunk·c:2·chunk·(c+1)] is chunk c's region of tail terms, by
	// row block, j's before k's, in triplet order; tailEnds[2·blocks·c +
	// 2rb + (0 for j, 1 for k)] is where they end.
	tails    []tailTerm
	tailEnds []int32
	// coef is one coefficient buffer of 2·chunk entries per worker.
	coef [][]float32
}

// newKernel returns a kernel starting from the n×d embedding x0 (row-major,
// unpadded), with an AMSGrad Adam optimiser of learning rate lr.
func newKernel(loss lossFunc, x0 []float32, n, d, threads int, lr float64) (*kernel, error) {
	stride := (d + lanes - 1) / lanes * lanes
	adam, err := optim.NewAdam[float32](n*stride, lr)
	if err != nil {
		return nil, err
	}
	// Row blocks of at least minBlockRows rows, about blocksPerThread per
	// thread for the load balance of the scatter, and at most maxRowBlocks.
	// The result does not depend on them (see accumulate).
	const minBlockRows, blocksPerThread = 16, 8
	shift := uint(bits.Len(uint(minBlockRows - 1)))
	for (n-1)>>shift >= min(maxRowBlocks, blocksPerThread*max(threads, 1)) {
		shift++
	}
	k := &kernel{loss: loss, n: n, d: d, threads: threads, stride: stride, adam: adam,
		x: make([]float32, n*stride), g: make([]float32, n*stride),
		rowShift: shift, blocks: (n-1)>>shift + 1, coef: make([][]float32, parallel.Workers(threads))}
	for w := range k.coef {
		k.coef[w] = make([]float32, 2*chunk)
	}
	if laneCount*4*len(k.g) <= laneBytes {
		k.lanes = make([][]float32, laneCount)
		k.lanes[0] = k.g
		for p := 1; p < laneCount; p++ {
			k.lanes[p] = make([]float32, len(k.g))
		}
	}
	for i := 0; i < n; i++ {
		copy(k.x[i*stride:i*stride+d], x0[i*d:i*d+d])
	}
	return k, nil
}

// embedding returns x without the padding, in float64.
func (k *kernel) embedding() []float64 {
	out := make([]float64, k.n*k.d)
	for i := 0; i < k.n; i++ {
		row := k.x[i*k.stride : i*k.stride+k.d]
		for c, v := range row {
			out[i*k.d+c] = float64(v)
		}
	}
	return out
}

// step does one Adam step on the triplets idx (3 int32 each) and returns
// their summed loss (the ridge term included). The result does not depend on
// the number of threads: see doc.go.
func (k *kernel) step(idx []int32) (float64, error) {
	loss := k.scatter(idx)
	if err := k.adam.NextStep(); err != nil {
		return 0, err
	}
	return loss + k.gather(func(lo, hi int, g []float32) {
		k.adam.UpdateRange(k.x[lo:hi], g, lo)
		clear(g)
	}), nil
}

// lossGrad sets g to the gradient at x of the loss over the triplets idx
// (the ridge term included) and returns that loss, leaving x as it is: the
// objective L-BFGS minimises. The caller clears g before the next step.
func (k *kernel) lossGrad(idx []int32) float64 {
	return k.scatter(idx) + k.gather(nil)
}

// scatter adds the gradient of the triplets idx to the lanes (or to g, with
// the row-block scatter) and returns their summed loss.
func (k *kernel) scatter(idx []int32) float64 {
	if k.lanes != nil {
		return k.accumulateLanes(idx)
	}
	m := len(idx) / 3
	var loss float64
	for s := 0; s < m; s += span {
		loss += k.accumulate(idx[3*s : 3*min(s+span, m)])
	}
	return loss
}

// gather completes the gradient in g, chunk by chunk: it adds the other
// lanes to g in lane order (and clears them), then the ridge term's
// 2λ·x, each product rounded to float32 before the addition, and hands
// the chunk to apply (when not nil). It returns the ridge term λ‖x‖² of
// the loss, summed in float64 over the chunks in order.
func (k *kernel) gather(apply func(lo, hi int, g []float32)) float64 {
	twoLambda := float32(2 * k.ridge)
	sums := parallel.Map(k.threads, len(k.x), adamChunk, func(_, lo, hi int) float64 {
		g := k.g[lo:hi]
		for _, lane := range k.lanes[min(1, len(k.lanes)):] {
			part := lane[lo:hi:hi]
			for e := range g {
				g[e] += part[e]
			}
			clear(part)
		}
		var sq float64
		if k.ridge != 0 {
			x := k.x[lo:hi:hi]
			for e := range g {
				g[e] += float32(twoLambda * x[e])
				sq += float64(x[e]) * float64(x[e])
			}
		}
		if apply != nil {
			apply(lo, hi, g)
		}
		return sq
	})
	var total float64
	for _, s := range sums {
		total += s
	}
	return k.ridge * total
}

// accumulateLanes adds the gradient of the loss over the triplets idx to the
// lanes and returns their summed loss. The triplets are cut into laneCount
// shares of consecutive triplets, share p going to lane p; a lane's share is
// one task of parallel.For (addShare), so the thread count decides only
// which goroutine runs it. step then sums the lanes in lane order.
func (k *kernel) accumulateLanes(idx []int32) float64 {
	m := len(idx) / 3
	losses := make([]float64, laneCount)
	parallel.For(k.threads, laneCount, func(_, p int) {
		lo, hi := m*p/laneCount, m*(p+1)/laneCount
		losses[p] = k.addShare(idx[3*lo:3*hi], k.lanes[p])
	})
	var total float64
	for _, l := range losses {
		total += l
	}
	return total
}

// addShare adds the gradient of the loss over the triplets idx to g and
// returns their summed loss. Per block of triplets it computes the squared
// distances (blockDists), the method's loss and coefficients
// (lossFunc.coefficients, the only per-method code), and scatters the
// gradient (blockScatter) while the block's rows are still in L1.
func (k *kernel) addShare(idx []int32, g []float32) float64 {
	var dist, coef [2 * block]float32
	m := len(idx) / 3
	var total float64
	for b := 0; b < m; b += block {
		cnt := min(block, m-b)
		k.blockDists(idx[3*b:], cnt, dist[:2*cnt])
		total += k.loss.coefficients(dist[:2*cnt], coef[:2*cnt])
		k.blockScatter(g, idx[3*b:3*(b+cnt)], coef[:2*cnt])
	}
	return total
}

// accumulate adds the gradient of the loss over the triplets idx (at most
// span of them) to g and returns their summed loss, by the row-block
// scatter. This is the hot loop, in two parallel passes:
//
//  1. per chunk of triplets: the squared distances (blockDists), the
//     method's loss and coefficients (lossFunc.coefficients, the only
//     per-method code), and the chunk's gradient terms sorted by the row
//     block they add to (sortTerms);
//  2. per row block: its terms added to g (scatterHeads, scatterTails),
//     chunk by chunk, so that every row is written by one goroutine only
//     and receives its terms in an order fixed by the triplets alone: per
//     chunk, first those where it is i, in triplet order, then those where
//     it is j, then k.
//
// Neither the row blocks nor the thread count change that order, hence the
// result. The distance and scatter loops are assembly where the CPU allows.
func (k *kernel) accumulate(idx []int32) float64 {
	m := len(idx) / 3
	if m == 0 {
		return 0
	}
	chunks := parallel.Chunks(m, chunk)
	if len(k.heads) < chunk*chunks {
		k.heads = make([]headTerm, chunk*chunks)
		k.tails = make([]tailTerm, 2*chunk*chunks)
		k.headEnds = make([]int32, k.blocks*chunks)
		k.tailEnds = make([]int32, 2*k.blocks*chunks)
	}
	losses := parallel.Map(k.threads, m, chunk, func(w, lo, hi int) float64 {
		c := lo / chunk
		coef := k.coef[w][:2*(hi-lo)]
		loss := k.coefficients(idx[3*lo:3*hi], coef)
		k.sortTerms(idx[3*lo:3*hi], coef,
			k.heads[chunk*c:chunk*(c+1)], k.headEnds[k.blocks*c:k.blocks*(c+1)],
			k.tails[2*chunk*c:2*chunk*(c+1)], k.tailEnds[2*k.blocks*c:2*k.blocks*(c+1)])
		return loss
	})
	parallel.For(k.threads, k.blocks, func(_, rb int) {
		for c := range chunks {
			k.scatterHeads(bucket(k.heads[chunk*c:], k.headEnds[k.blocks*c:], rb))
			k.scatterTails(bucket(k.tails[2*chunk*c:], k.tailEnds[2*k.blocks*c:], 2*rb))
			k.scatterTails(bucket(k.tails[2*chunk*c:], k.tailEnds[2*k.blocks*c:], 2*rb+1))
		}
	})
	var total float64
	for _, l := range losses {
		total += l
	}
	return total
}

// bucket returns bucket b of a region whose buckets end at ends.
func bucket[T any](region []T, ends []int32, b int) []T {
	start := int32(0)
	if b > 0 {
		start = ends[b-1]
	}
	return region[start:ends[b]]
}

// coefficients sets coef to the gradient coefficients of the triplets idx
// and returns their summed loss.
func (k *kernel) coefficients(idx []int32, coef []float32) float64 {
	var dist [2 * block]float32
	m := len(idx) / 3
	var total float64
	for b := 0; b < m; b += block {
		cnt := min(block, m-b)
		k.blockDists(idx[3*b:], cnt, dist[:2*cnt])
		total += k.loss.coefficients(dist[:2*cnt], coef[2*b:2*(b+cnt)])
	}
	return total
}

// sortTerms writes the gradient terms of the triplets idx with coefficients
// coef into heads and tails, grouped by the row block they add to (a
// counting sort, so in triplet order within a group), and sets headEnds and
// tailEnds to where the groups end. A triplet has a head term when either
// coefficient is non-zero, and a tail term for j (k) when sᵢⱼ (sᵢₖ) is: a
// zero coefficient (an inactive SOE hinge) adds nothing, while a NaN one
// must reach g, so that Fit sees the divergence.
func (k *kernel) sortTerms(idx []int32, coef []float32, heads []headTerm, headEnds []int32, tails []tailTerm, tailEnds []int32) {
	sh := k.rowShift
	m := len(idx) / 3
	idx, coef = idx[:3*m], coef[:2*m]
	clear(headEnds)
	clear(tailEnds)
	for t := range m {
		hj, hk := coef[2*t] != 0, coef[2*t+1] != 0
		if hj || hk {
			headEnds[idx[3*t]>>sh]++
		}
		if hj {
			tailEnds[2*(idx[3*t+1]>>sh)]++
		}
		if hk {
			tailEnds[2*(idx[3*t+2]>>sh)+1]++
		}
	}
	// The counts become starts; placing the terms moves them to the ends.
	exclusiveSums(headEnds)
	exclusiveSums(tailEnds)
	for t := range m {
		i, j, kk := idx[3*t], idx[3*t+1], idx[3*t+2]
		sij, sik := coef[2*t], coef[2*t+1]
		hj, hk := sij != 0, sik != 0
		// Field by field: a composite literal would be built on the stack
		// and copied.
		if hj || hk {
			p := &headEnds[i>>sh]
			h := &heads[*p]
			h.i, h.j, h.k, h.sij, h.sik = i, j, kk, sij, sik
			*p++
		}
		if hj {
			p := &tailEnds[2*(j>>sh)]
			tl := &tails[*p]
			tl.i, tl.r, tl.s = i, j, sij
			*p++
		}
		if hk {
			p := &tailEnds[2*(kk>>sh)+1]
			tl := &tails[*p]
			tl.i, tl.r, tl.s = i, kk, sik
			*p++
		}
	}
}

// exclusiveSums replaces the counts c by their exclusive prefix sums.
func exclusiveSums(c []int32) {
	var sum int32
	for b, v := range c {
		c[b] = sum
		sum += v
	}
}

// blockDistsGo sets out[2t], out[2t+1] to ‖xᵢ−xⱼ‖², ‖xᵢ−xₖ‖² for the first
// cnt triplets of idx.
func (k *kernel) blockDistsGo(idx []int32, cnt int, out []float32) {
	d := k.stride
	x := k.x
	for t := 0; t < cnt; t++ {
		ri, rj, rk := int(idx[3*t])*d, int(idx[3*t+1])*d, int(idx[3*t+2])*d
		out[2*t], out[2*t+1] = sqDistsGo(x[ri:ri+d:ri+d], x[rj:rj+d:rj+d], x[rk:rk+d:rk+d])
	}
}

// blockScatterGo adds to g the gradient of the triplets idx with
// coefficients coef[2t] = sᵢⱼ, coef[2t+1] = sᵢₖ: u = sᵢⱼ(xᵢ−xⱼ) and
// v = sᵢₖ(xᵢ−xₖ), each product rounded to float32 (no fused multiply-add),
// gᵢ += u+v, gⱼ −= u, gₖ −= v. A triplet whose coefficients are both +0 (an
// inactive SOE hinge) is skipped.
func (k *kernel) blockScatterGo(g []float32, idx []int32, coef []float32) {
	d := k.stride
	x := k.x
	for t := 0; 3*t+2 < len(idx); t++ {
		sij, sik := coef[2*t], coef[2*t+1]
		if math.Float32bits(sij)|math.Float32bits(sik) == 0 {
			continue
		}
		ri, rj, rk := int(idx[3*t])*d, int(idx[3*t+1])*d, int(idx[3*t+2])*d
		xi, xj, xk := x[ri:ri+d:ri+d], x[rj:rj+d:rj+d], x[rk:rk+d:rk+d]
		gi, gj, gk := g[ri:ri+d:ri+d], g[rj:rj+d:rj+d], g[rk:rk+d:rk+d]
		for c, v := range xi {
			u := float32(sij * (v - xj[c]))
			w := float32(sik * (v - xk[c]))
			gi[c] += u + w
			gj[c] -= u
			gk[c] -= w
		}
	}
}

// scatterHeadsGo adds the head terms to g: gᵢ += u + v with u = sᵢⱼ(xᵢ−xⱼ)
// and v = sᵢₖ(xᵢ−xₖ), each product rounded to float32 before the addition
// (no fused multiply-add).
func (k *kernel) scatterHeadsGo(terms []headTerm) {
	d := k.stride
	x, g := k.x, k.g
	for _, h := range terms {
		ri, rj, rk := int(h.i)*d, int(h.j)*d, int(h.k)*d
		xi, xj, xk, gi := x[ri:ri+d:ri+d], x[rj:rj+d:rj+d], x[rk:rk+d:rk+d], g[ri:ri+d:ri+d]
		for c, v := range xi {
			u := float32(h.sij * (v - xj[c]))
			w := float32(h.sik * (v - xk[c]))
			gi[c] += u + w
		}
	}
}

// scatterTailsGo adds the tail terms to g: gᵣ −= s(xᵢ−xᵣ), the product
// rounded to float32 before the subtraction.
func (k *kernel) scatterTailsGo(terms []tailTerm) {
	d := k.stride
	x, g := k.x, k.g
	for _, t := range terms {
		ri, rr := int(t.i)*d, int(t.r)*d
		xi, xr, gr := x[ri:ri+d:ri+d], x[rr:rr+d:rr+d], g[rr:rr+d:rr+d]
		for c, v := range xi {
			gr[c] -= float32(t.s * (v - xr[c]))
		}
	}
}

// tripletError returns the fraction of the triplets idx that the embedding
// violates (triplets.Violated: unless ‖xᵢ−xⱼ‖ < ‖xᵢ−xₖ‖, so ties count as
// violated, as lib/metrics counts them).
func (k *kernel) tripletError(idx []int32) float64 {
	m := len(idx) / 3
	if m == 0 {
		return 0
	}
	bad := 0
	for _, c := range parallel.Map(k.threads, m, chunk, func(_, lo, hi int) int {
		return k.violations(idx[3*lo : 3*hi])
	}) {
		bad += c
	}
	return float64(bad) / float64(m)
}

// violations counts the triplets of idx that the embedding violates, with
// the same distance pass as accumulate.
func (k *kernel) violations(idx []int32) int {
	var dist [2 * block]float32
	m := len(idx) / 3
	bad := 0
	for b := 0; b < m; b += block {
		cnt := min(block, m-b)
		k.blockDists(idx[3*b:], cnt, dist[:2*cnt])
		for t := 0; t < cnt; t++ {
			if triplets.Violated(dist[2*t], dist[2*t+1]) {
				bad++
			}
		}
	}
	return bad
}

// sqDistsGo returns ‖xi−xj‖² and ‖xi−xk‖² (all of length len(xi), a
// multiple of 8) exactly as the assembly computes them: eight lane sums,
// lane l adding the squares of the differences at l, l+8, l+16, …, each
// square rounded to float32 before the addition (no fused multiply-add),
// then ((a₀+a₄)+(a₁+a₅)) + ((a₂+a₆)+(a₃+a₇)). Named accumulators rather
// than an array keep them in registers.
func sqDistsGo(xi, xj, xk []float32) (dij, dik float32) {
	xj = xj[:len(xi)]
	xk = xk[:len(xi)]
	var a0, a1, a2, a3, a4, a5, a6, a7 float32
	var b0, b1, b2, b3, b4, b5, b6, b7 float32
	for c := 0; c+lanes <= len(xi); c += lanes {
		p, q, r := xi[c:c+lanes:c+lanes], xj[c:c+lanes:c+lanes], xk[c:c+lanes:c+lanes]
		u0, u1, u2, u3 := p[0]-q[0], p[1]-q[1], p[2]-q[2], p[3]-q[3]
		u4, u5, u6, u7 := p[4]-q[4], p[5]-q[5], p[6]-q[6], p[7]-q[7]
		a0 += float32(u0 * u0)
		a1 += float32(u1 * u1)
		a2 += float32(u2 * u2)
		a3 += float32(u3 * u3)
		a4 += float32(u4 * u4)
		a5 += float32(u5 * u5)
		a6 += float32(u6 * u6)
		a7 += float32(u7 * u7)
		v0, v1, v2, v3 := p[0]-r[0], p[1]-r[1], p[2]-r[2], p[3]-r[3]
		v4, v5, v6, v7 := p[4]-r[4], p[5]-r[5], p[6]-r[6], p[7]-r[7]
		b0 += float32(v0 * v0)
		b1 += float32(v1 * v1)
		b2 += float32(v2 * v2)
		b3 += float32(v3 * v3)
		b4 += float32(v4 * v4)
		b5 += float32(v5 * v5)
		b6 += float32(v6 * v6)
		b7 += float32(v7 * v7)
	}
	return ((a0 + a4) + (a1 + a5)) + ((a2 + a6) + (a3 + a7)), ((b0 + b4) + (b1 + b5)) + ((b2 + b6) + (b3 + b7))
}
