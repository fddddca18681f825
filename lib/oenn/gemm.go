package oenn

import (
	"github.com/oe-lab/oe/lib/internal/asm"
	"github.com/oe-lab/oe/lib/internal/parallel"
)

// The matrix products of EmbNet's forward and backward passes, C = A·B with
// either factor possibly transposed, computed the way optimised BLAS
// libraries do (Goto's algorithm): blocks of B are packed into panels of nr
// columns and blocks of A into panels of mr rows, so that a register-blocked
// micro-kernel streams both from cache and keeps an mr×nr tile of C in
// vector registers for a whole block of the inner dimension. The
// micro-kernel is assembly on amd64 (AVX-512 or AVX2+FMA, see
// gemm_amd64.s) and microGo elsewhere or with the noasm build tag.
//
// Determinism: every element of C is summed in the same order (from zero,
// blocks of kc along the inner dimension, in order, each accumulated
// sequentially by one micro-kernel call) whatever the number of workers and
// however the work is cut into tasks, so a run's result does not depend on
// its threads.
//
// Packing pays even where an operand's panel rows already lie side by side
// (A stored transposed, B as it is: the weight gradients' Hᵀ·δ): a
// micro-kernel reading them in place, with the operand's stride, took
// 10 % longer at w = 120 (120×120×78,000) and 30–80 % longer at w = 648 to
// 1,282, where each block's rows span hundreds of pages.

// Block sizes: a packed kc×nr panel of B (32 KiB at nr = 32) stays in L1
// while the micro-kernel sweeps the mc×kc block of A (96 KiB) held in L2.
const (
	kc = 256
	mc = 96 // a multiple of every micro-kernel's mr
	nc = 2048
)

// packBFloats bounds the part of B that several workers pack at once: as
// many blocks of kc rows as fit, so that they meet once per group of blocks
// rather than once per block (a weight gradient's inner dimension is the
// batch's tens of thousands of items). One worker packs one block at a
// time, which keeps the rows of A and B that its tasks share in cache.
const packBFloats = 1 << 20

// tasksPerWorker is how many tasks a product is cut into per worker where
// it is large enough, so that workers that finish early take over the
// remaining ones.
const tasksPerWorker = 4

// minGroupPanels is the fewest B panels a task sweeps with each packed
// block of A before the rows are cut finer, so that packing A stays a small
// part of the task.
const minGroupPanels = 4

// microKernel sets the mr×nr tile at c (ldc floats per row) to the tile at
// src (lds floats per row) plus the product of k columns of a packed A
// panel (mr floats per column) and k rows of a packed B panel (nr floats
// per row). src is c itself where the product adds to C, or a row of nr
// zeros with lds = 0 where it starts C: that sets C to 0 + the product,
// what clearing C and adding to it gave, without a pass over C to clear it.
type microKernel struct {
	mr, nr int
	run    func(k int, a, b, c []float32, ldc int, src []float32, lds int)
}

// matrix is a row-major operand: element (i, j) is data[i*stride+j], or
// data[j*stride+i] when trans is set.
type matrix struct {
	data   []float32
	stride int
	trans  bool
}

// gemm holds the packing buffers of one network's products (B's sized by
// the first products), so that training allocates nothing per batch.
type gemm struct {
	kern  microKernel
	packB []float32
	packA [][]float32 // one per worker
	edge  [][]float32 // one mr×nr tile per worker, for partial tiles
	zeros []float32   // nr zeros: the tile the first block of the inner dimension adds to
}

// newGemm returns the products' buffers for kern on threads goroutines
// (parallel.Workers: ≤ 0 is GOMAXPROCS).
func newGemm(kern microKernel, threads int) *gemm {
	workers := parallel.Workers(threads)
	g := &gemm{
		kern:  kern,
		packA: make([][]float32, workers),
		edge:  make([][]float32, workers),
		zeros: make([]float32, kern.nr),
	}
	for w := range g.packA {
		g.packA[w] = make([]float32, mc*kc)
		g.edge[w] = make([]float32, kern.mr*kern.nr)
	}
	return g
}

// mul computes C = A·B for A m×k, B k×n and C m×n row-major with ldc floats
// per row; the entries of C's rows past n are left as they are.
//
// The work is cut into tasks of some rows of C by a group of B's panels
// (see cut), so that products with few rows (the weight gradients, w×w)
// keep every worker busy, and B is packed by all workers. Each task sums
// its tiles over the inner dimension block by block, in order.
func (g *gemm) mul(m, n, k int, a, b matrix, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		for i := range m {
			clear(c[i*ldc : i*ldc+n])
		}
		return
	}
	mr, nr := g.kern.mr, g.kern.nr
	workers := len(g.packA)
	for j0 := 0; j0 < n; j0 += nc {
		j1 := min(j0+nc, n)
		panels := (j1 - j0 + nr - 1) / nr
		rows, groupPanels := g.cut(m, panels)
		groups := (panels + groupPanels - 1) / groupPanels
		tasks := (m + rows - 1) / rows * groups
		// task returns the rows and columns of C that task t computes.
		task := func(t int) (i0, i1, jg0, jg1 int) {
			i0, jg0 = t/groups*rows, j0+t%groups*groupPanels*nr
			return i0, min(i0+rows, m), jg0, min(jg0+groupPanels*nr, j1)
		}
		width := panels * nr
		groupRows := kc
		if workers > 1 {
			groupRows = max(1, packBFloats/(kc*width)) * kc
		}
		for q0 := 0; q0 < k; q0 += groupRows {
			q1 := min(q0+groupRows, k)
			blocks := (q1 - q0 + kc - 1) / kc
			if need := blocks * kc * width; len(g.packB) < need {
				g.packB = make([]float32, need)
			}
			// Block p0 of B is packed at (p0−q0)·width, its panel s at
			// s·(p1−p0) past that.
			parallel.For(workers, blocks*panels, func(_, t int) {
				p0 := q0 + t/panels*kc
				p1 := min(p0+kc, q1)
				s := j0 + t%panels*nr
				packPanels(g.packB[(p0-q0)*width+(s-j0)*(p1-p0):], b, p0, p1, s, min(s+nr, j1), nr, false)
			})
			parallel.For(workers, tasks, func(w, t int) {
				i0, i1, jg0, jg1 := task(t)
				pa := g.packA[w]
				for p0 := q0; p0 < q1; p0 += kc {
					p1 := min(p0+kc, q1)
					packPanels(pa, a, p0, p1, i0, i1, mr, true)
					packedB := g.packB[(p0-q0)*width:]
					for jr := jg0; jr < jg1; jr += nr {
						pb := packedB[(jr-j0)*(p1-p0):]
						for ir := i0; ir < i1; ir += mr {
							pai := pa[(ir-i0)*(p1-p0):]
							if ir+mr <= i1 && jr+nr <= jg1 {
								src, lds := c[ir*ldc+jr:], ldc
								if p0 == 0 {
									src, lds = g.zeros, 0
								}
								g.kern.run(p1-p0, pai, pb, c[ir*ldc+jr:], ldc, src, lds)
								continue
							}
							// A partial tile: compute it whole into a scratch
							// tile (the panels are zero-padded) and add the
							// valid part, or, in the first block, copy it:
							// the scratch holds 0 + the product, never −0,
							// so it is what adding it to a cleared C gave.
							e := g.edge[w]
							g.kern.run(p1-p0, pai, pb, e, nr, g.zeros, 0)
							for i := ir; i < min(ir+mr, i1); i++ {
								row := c[i*ldc+jr : i*ldc+min(jr+nr, jg1)]
								if p0 == 0 {
									copy(row, e[(i-ir)*nr:])
								} else {
									asm.SumRows(row, e[(i-ir)*nr:], 1, nr)
								}
							}
						}
					}
				}
			})
		}
	}
}

// cut returns the rows (a multiple of mr, at most mc) and the panels of B
// of each of mul's tasks for an m-row product with panels panels: whole
// blocks of mc rows and all panels on one worker; else about
// tasksPerWorker tasks per worker, by grouping the panels (at least
// minGroupPanels a group) and then, where there are still too few tasks,
// by cutting the rows finer and the groups down to single panels.
func (g *gemm) cut(m, panels int) (rows, groupPanels int) {
	workers := len(g.packA)
	if workers == 1 {
		return mc, panels
	}
	mr := g.kern.mr
	target := tasksPerWorker * workers
	rowTasks := (m + mc - 1) / mc
	groups := max(1, min((target+rowTasks-1)/rowTasks, panels/minGroupPanels))
	rows = mc
	if rowTasks*groups < target {
		want := (target + groups - 1) / groups
		rows = min(mc, max(mr, ((m+want-1)/want+mr-1)/mr*mr))
		rowTasks = (m + rows - 1) / rows
		if rowTasks*groups < target {
			groups = min(panels, (target+rowTasks-1)/rowTasks)
		}
	}
	return rows, (panels + groups - 1) / groups
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
				if width == w {
					copyRun(out, src)
					continue
				}
				copy(out, src[:width])
				clear(out[width:])
			}
			continue
		}
		// The panel's columns are contiguous runs of x.data: transpose four
		// runs at a time into four adjacent columns (asm.Transpose4Rows,
		// eight entries of each at once where the CPU allows), the rest
		// one by one.
		if width < w {
			clear(panel)
		}
		q := 0
		for ; q+4 <= width; q += 4 {
			asm.Transpose4Rows(panel[q:], w, x.data[(s+q)*x.stride+p0:], x.stride, kLen)
		}
		for ; q < width; q++ {
			for p, v := range x.data[(s+q)*x.stride+p0 : (s+q)*x.stride+p1] {
				panel[p*w+q] = v
			}
		}
	}
}

// copyRun copies the first len(dst) floats of src to dst. The runs are a
// panel's rows, as long as a micro-kernel's mr or nr (6 to 32 floats):
// copied as arrays of that length they take a few vector moves, where copy
// calls memmove for each: those calls were 9 % of an OENN step on CHAR, the
// array copies take about two thirds of that (A's rows in
// BenchmarkPackPanels: 1.38 → 1.22 ns a float). The copy goes through a
// local array: assigned directly from one array pointer to another, the
// compiler calls memmove after all.
func copyRun(dst, src []float32) {
	switch len(dst) {
	case 6:
		v := [6]float32(src)
		*(*[6]float32)(dst) = v
	case 12:
		v := [12]float32(src)
		*(*[12]float32)(dst) = v
	case 16:
		v := [16]float32(src)
		*(*[16]float32)(dst) = v
	case 32:
		v := [32]float32(src)
		*(*[32]float32)(dst) = v
	default:
		copy(dst, src)
	}
}

// microGo is the portable micro-kernel. It sums each tile entry in the
// assembly kernels' order but rounds each product before adding it, where
// they fuse the two (see doc.go, "Reproducibility across machines").
func microGo(mr, nr int) microKernel {
	return microKernel{mr: mr, nr: nr, run: func(k int, a, b, c []float32, ldc int, src []float32, lds int) {
		for i := 0; i < mr; i++ {
			row, from := c[i*ldc:i*ldc+nr], src[i*lds:i*lds+nr]
			for j := range row {
				var s float32
				for p := 0; p < k; p++ {
					s += float32(a[p*mr+i] * b[p*nr+j]) // rounded: Go may not fuse it (arm64 would)
				}
				row[j] = from[j] + s
			}
		}
	}}
}
