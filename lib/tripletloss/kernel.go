package tripletloss

import (
	"sync"

	"github.com/oe-lab/oe/lib/optim"
)

// reduceBlock is the number of gradient entries summed and stepped at a time,
// small enough that the block stays in L1 between the sum and the Adam step.
const reduceBlock = 2048

// lanes is the row padding: rows of the embedding and the gradients are
// stored with a stride that is a multiple of lanes, zero-filled beyond d, so
// that the SIMD loops need no tail handling. The padding stays zero: its
// gradient is sij·(0−0) = 0, and Adam moves a parameter whose gradients are
// all zero by 0/(0+ε) = 0.
const lanes = 8

// kernel is the fused triplet-loss kernel: the embedding, per-thread gradient
// buffers and the optimiser, for one run.
type kernel struct {
	loss    lossFunc
	n, d    int
	threads int
	// stride is the row length in x and the gradients: d rounded up to lanes.
	stride int
	// x is the n×d embedding, row-major with rows stride apart.
	x []float32
	// grads[w] is worker w's gradient buffer, laid out as x; all zero
	// between steps.
	grads [][]float32
	// partial[w] is worker w's share of the current batch's loss or error count.
	partial []float64
	adam    *optim.Adam
}

// newKernel returns a kernel starting from the n×d embedding x0 (row-major,
// unpadded), with an AMSGrad Adam optimiser of learning rate lr.
func newKernel(loss lossFunc, x0 []float32, n, d, threads int, lr float64) (*kernel, error) {
	stride := (d + lanes - 1) / lanes * lanes
	adam, err := optim.NewAdam(n*stride, lr)
	if err != nil {
		return nil, err
	}
	k := &kernel{loss: loss, n: n, d: d, threads: threads, stride: stride, adam: adam,
		x: make([]float32, n*stride), grads: make([][]float32, threads), partial: make([]float64, threads)}
	for i := 0; i < n; i++ {
		copy(k.x[i*stride:i*stride+d], x0[i*d:i*d+d])
	}
	for w := range k.grads {
		k.grads[w] = make([]float32, n*stride)
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

// parallel runs f(0..threads-1) concurrently and waits for all of them.
func (k *kernel) parallel(f func(w int)) {
	if k.threads == 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	for w := 1; w < k.threads; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(w)
		}()
	}
	f(0)
	wg.Wait()
}

// share returns worker w's static share [lo, hi) of count items.
func (k *kernel) share(w, count int) (lo, hi int) {
	return count * w / k.threads, count * (w + 1) / k.threads
}

// step does one optimisation step on the triplets idx (3 int32 each) and
// returns their summed loss. The sum over workers is taken in worker order,
// so the result depends on the thread count but not on scheduling.
func (k *kernel) step(idx []int32) (float64, error) {
	m := len(idx) / 3
	k.parallel(func(w int) {
		lo, hi := k.share(w, m)
		k.partial[w] = k.accumulate(idx[3*lo:3*hi], k.grads[w])
	})
	if err := k.adam.NextStep(); err != nil {
		return 0, err
	}
	size := k.n * k.stride
	k.parallel(func(w int) {
		lo, hi := k.share(w, size)
		k.reduceAndUpdate(lo, hi)
	})
	var loss float64
	for _, p := range k.partial {
		loss += p
	}
	return loss, nil
}

// block is the number of triplets accumulate handles per pass: their
// distances, then their loss coefficients, then their gradient scatter. Small
// enough that the block's rows stay in L1 between the first and last pass.
const block = 32

// accumulate adds the gradient of the loss over the triplets idx to g and
// returns their summed loss. This is the hot loop. Per block of triplets it
// computes the squared distances (blockDists), turns them into the method's
// loss and gradient coefficients (lossFunc.coefficients, the only
// per-method code), and scatters the gradient (blockScatter). The first and
// last pass are assembly where the CPU allows; all run over the padded rows,
// whose zero padding adds nothing.
func (k *kernel) accumulate(idx []int32, g []float32) float64 {
	var dist, coef [2 * block]float32
	m := len(idx) / 3
	var total float64
	for b := 0; b < m; b += block {
		cnt := min(block, m-b)
		k.blockDists(g, idx[3*b:], cnt, dist[:2*cnt])
		total += k.loss.coefficients(dist[:2*cnt], coef[:2*cnt])
		k.blockScatter(g, idx[3*b:3*(b+cnt)], coef[:2*cnt])
	}
	return total
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

// blockScatterGo adds the gradient of the triplets idx with coefficients
// coef[2t] = 2∂ℓ/∂dᵢⱼ, coef[2t+1] = 2∂ℓ/∂dᵢₖ to g.
func (k *kernel) blockScatterGo(g []float32, idx []int32, coef []float32) {
	d := k.stride
	x := k.x
	for t := 0; 3*t+2 < len(idx); t++ {
		sij, sik := coef[2*t], coef[2*t+1]
		if sij == 0 && sik == 0 {
			continue
		}
		ri, rj, rk := int(idx[3*t])*d, int(idx[3*t+1])*d, int(idx[3*t+2])*d
		scatterGo(g[ri:ri+d:ri+d], g[rj:rj+d:rj+d], g[rk:rk+d:rk+d],
			x[ri:ri+d:ri+d], x[rj:rj+d:rj+d], x[rk:rk+d:rk+d], sij, sik)
	}
}

// reduceAndUpdate sums the workers' gradients over entries [lo, hi) into
// grads[0], in worker order, applies the Adam step to those entries, and
// leaves every buffer zero there for the next batch.
func (k *kernel) reduceAndUpdate(lo, hi int) {
	g0 := k.grads[0]
	for b := lo; b < hi; b += reduceBlock {
		e := min(b+reduceBlock, hi)
		sum := g0[b:e]
		for _, gw := range k.grads[1:] {
			part := gw[b:e:e]
			for q := range sum {
				sum[q] += part[q]
			}
			clear(part)
		}
		k.adam.UpdateRange(k.x[b:e], sum, b)
		clear(sum)
	}
}

// tripletError returns the fraction of the triplets idx that the embedding
// violates: ‖xᵢ−xₖ‖ < ‖xᵢ−xⱼ‖. Ties count as satisfied, as in the authors'
// code and lib/triplets.
func (k *kernel) tripletError(idx []int32) float64 {
	m := len(idx) / 3
	if m == 0 {
		return 0
	}
	k.parallel(func(w int) {
		lo, hi := k.share(w, m)
		k.partial[w] = float64(k.violations(idx[3*lo : 3*hi]))
	})
	var bad float64
	for _, p := range k.partial {
		bad += p
	}
	return bad / float64(m)
}

// violations counts the triplets of idx that the embedding violates, with
// the same distance loop as accumulate.
func (k *kernel) violations(idx []int32) int {
	var dist [2 * block]float32
	m := len(idx) / 3
	bad := 0
	for b := 0; b < m; b += block {
		cnt := min(block, m-b)
		// No gradient here: the prefetch of g rows goes to x instead.
		k.blockDists(k.x, idx[3*b:], cnt, dist[:2*cnt])
		for t := 0; t < cnt; t++ {
			if dist[2*t+1] < dist[2*t] {
				bad++
			}
		}
	}
	return bad
}

// sqDistsGo returns ‖xi−xj‖² and ‖xi−xk‖² (all of length len(xi)). Four
// independent accumulators per sum let the additions pipeline; reslicing to
// len(xi) lets the compiler drop the bounds checks.
func sqDistsGo(xi, xj, xk []float32) (dij, dik float32) {
	xj = xj[:len(xi)]
	xk = xk[:len(xi)]
	var a0, a1, a2, a3, b0, b1, b2, b3 float32
	c := 0
	for ; c+4 <= len(xi); c += 4 {
		p, q, r := xi[c:c+4:c+4], xj[c:c+4:c+4], xk[c:c+4:c+4]
		u0, u1, u2, u3 := p[0]-q[0], p[1]-q[1], p[2]-q[2], p[3]-q[3]
		v0, v1, v2, v3 := p[0]-r[0], p[1]-r[1], p[2]-r[2], p[3]-r[3]
		a0 += u0 * u0
		a1 += u1 * u1
		a2 += u2 * u2
		a3 += u3 * u3
		b0 += v0 * v0
		b1 += v1 * v1
		b2 += v2 * v2
		b3 += v3 * v3
	}
	for ; c < len(xi); c++ {
		u, v := xi[c]-xj[c], xi[c]-xk[c]
		a0 += u * u
		b0 += v * v
	}
	return (a0 + a1) + (a2 + a3), (b0 + b1) + (b2 + b3)
}

// scatterGo adds one triplet's gradient: u = sij(xi−xj), v = sik(xi−xk);
// gi += u+v, gj −= u, gk −= v.
func scatterGo(gi, gj, gk, xi, xj, xk []float32, sij, sik float32) {
	n := len(xi)
	gi, gj, gk, xj, xk = gi[:n], gj[:n], gk[:n], xj[:n], xk[:n]
	for c := range xi {
		u := sij * (xi[c] - xj[c])
		v := sik * (xi[c] - xk[c])
		gi[c] += u + v
		gj[c] -= u
		gk[c] -= v
	}
}
