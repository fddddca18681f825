package oenn

import "github.com/oe-lab/oe/lib/internal/parallel"

// The matrix products of EmbNet's forward and backward passes, C += A·B with
// either factor possibly transposed, computed the way optimised BLAS
// libraries do (Goto's algorithm): blocks of B are packed into panels of nr
// columns and blocks of A into panels of mr rows, so that a register-blocked
// micro-kernel streams both from cache and keeps an mr×nr tile of C in
// vector registers for a whole block of the inner dimension. The
// micro-kernel is assembly on amd64 (AVX-512 or AVX2+FMA, see
// gemm_amd64.s) and microGo elsewhere or with the noasm build tag.
//
// Determinism: every element of C is summed in the same order (blocks of kc
// along the inner dimension, in order, each accumulated sequentially by one
// micro-kernel call) whatever the number of workers, so a run's result does
// not depend on its threads.

// Block sizes: a packed kc×nr panel of B (32 KiB at nr = 32) stays in L1
// while the micro-kernel sweeps the mc×kc block of A (96 KiB) held in L2.
const (
	kc = 256
	mc = 96 // a multiple of every micro-kernel's mr
	nc = 2048
)

// microKernel adds to the mr×nr tile at c (ldc floats per row) the product
// of k columns of a packed A panel (mr floats per column) and k rows of a
// packed B panel (nr floats per row).
type microKernel struct {
	mr, nr int
	run    func(k int, a, b, c []float32, ldc int)
}

// matrix is a row-major operand: element (i, j) is data[i*stride+j], or
// data[j*stride+i] when trans is set.
type matrix struct {
	data   []float32
	stride int
	trans  bool
}

// gemm holds the packing buffers of one network's products, allocated once
// so that training allocates nothing per batch.
type gemm struct {
	kern  microKernel
	packB []float32
	packA [][]float32 // one per worker
	edge  [][]float32 // one mr×nr tile per worker, for partial tiles
}

// newGemm returns the products' buffers for kern on threads goroutines
// (parallel.Workers: ≤ 0 is GOMAXPROCS).
func newGemm(kern microKernel, threads int) *gemm {
	workers := parallel.Workers(threads)
	g := &gemm{
		kern:  kern,
		packB: make([]float32, kc*nc),
		packA: make([][]float32, workers),
		edge:  make([][]float32, workers),
	}
	for w := range g.packA {
		g.packA[w] = make([]float32, mc*kc)
		g.edge[w] = make([]float32, kern.mr*kern.nr)
	}
	return g
}

// mulAdd computes C += A·B for A m×k, B k×n and C m×n row-major with ldc
// floats per row.
func (g *gemm) mulAdd(m, n, k int, a, b matrix, c []float32, ldc int) {
	if m == 0 || n == 0 || k == 0 {
		return
	}
	mr, nr := g.kern.mr, g.kern.nr
	for j0 := 0; j0 < n; j0 += nc {
		j1 := min(j0+nc, n)
		for p0 := 0; p0 < k; p0 += kc {
			p1 := min(p0+kc, k)
			packPanels(g.packB, b, p0, p1, j0, j1, nr, false)
			parallel.For(len(g.packA), (m+mc-1)/mc, func(w, t int) {
				i0, i1 := t*mc, min((t+1)*mc, m)
				pa := g.packA[w]
				packPanels(pa, a, p0, p1, i0, i1, mr, true)
				for jr := j0; jr < j1; jr += nr {
					pb := g.packB[(jr-j0)*(p1-p0):]
					for ir := i0; ir < i1; ir += mr {
						pai := pa[(ir-i0)*(p1-p0):]
						if ir+mr <= i1 && jr+nr <= j1 {
							g.kern.run(p1-p0, pai, pb, c[ir*ldc+jr:], ldc)
							continue
						}
						// A partial tile: compute it whole into a scratch tile
						// (the panels are zero-padded) and add the valid part.
						e := g.edge[w]
						clear(e)
						g.kern.run(p1-p0, pai, pb, e, nr)
						for i := ir; i < min(ir+mr, i1); i++ {
							row := c[i*ldc : i*ldc+min(jr+nr, j1)]
							for j := jr; j < len(row); j++ {
								row[j] += e[(i-ir)*nr+j-jr]
							}
						}
					}
				}
			})
		}
	}
}

// packPanels copies the block of rows p0..p1 and columns q0..q1 of x, or
// of xᵀ when columns is set, into panels of w columns: panel s holds, for
// each row p, the w entries of columns q0+s·w … q0+s·w+w−1, zero past q1.
// B (k×n) is packed as it is; A (m×k) is packed as Aᵀ, so that a panel
// holds mr rows of A column by column.
func packPanels(dst []float32, x matrix, p0, p1, q0, q1, w int, columns bool) {
	kLen := p1 - p0
	for s := q0; s < q1; s += w {
		panel := dst[(s-q0)*kLen : (s-q0)*kLen+kLen*w]
		width := min(w, q1-s)
		if x.trans == columns {
			// The panel's rows are contiguous runs of x.data.
			for p := 0; p < kLen; p++ {
				src := x.data[(p0+p)*x.stride+s:]
				out := panel[p*w : p*w+w]
				copy(out, src[:width])
				clear(out[width:])
			}
			continue
		}
		// The panel's columns are contiguous runs of x.data: read four runs
		// at a time and write them down four adjacent columns, so that each
		// store fills part of a line that the next store continues.
		if width < w {
			clear(panel)
		}
		run := func(q int) []float32 { return x.data[(s+q)*x.stride+p0 : (s+q)*x.stride+p1] }
		q := 0
		for ; q+4 <= width; q += 4 {
			r0, r1, r2, r3 := run(q), run(q+1), run(q+2), run(q+3)
			r1, r2, r3 = r1[:len(r0)], r2[:len(r0)], r3[:len(r0)]
			for p := range r0 {
				out := panel[p*w+q : p*w+q+4]
				out[0], out[1], out[2], out[3] = r0[p], r1[p], r2[p], r3[p]
			}
		}
		for ; q < width; q++ {
			for p, v := range run(q) {
				panel[p*w+q] = v
			}
		}
	}
}

// microGo is the portable micro-kernel. It sums each tile entry in the
// assembly kernels' order but rounds each product before adding it, where
// they fuse the two (see doc.go, "Reproducibility across machines").
func microGo(mr, nr int) microKernel {
	return microKernel{mr: mr, nr: nr, run: func(k int, a, b, c []float32, ldc int) {
		for i := 0; i < mr; i++ {
			row := c[i*ldc : i*ldc+nr]
			for j := range row {
				var s float32
				for p := 0; p < k; p++ {
					s += float32(a[p*mr+i] * b[p*nr+j]) // rounded: Go may not fuse it (arm64 would)
				}
				row[j] += s
			}
		}
	}}
}
