package oenn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// kernelsUnderTest are the micro-kernels this machine can run: the
// portable one always, and the one bestKernel picks.
func kernelsUnderTest() map[string]microKernel {
	best := bestKernel()
	return map[string]microKernel{
		"go":       microGo(6, 16),
		"go-12x32": microGo(12, 32),
		fmt.Sprintf("best-%dx%d", best.mr, best.nr): best,
	}
}

// TestGemm checks C = op(A)·op(B) against a float64 triple loop for every
// kernel, both transposes, and sizes that leave partial tiles and span
// several kc and mc blocks, and that the padding past each row of C keeps
// its values.
func TestGemm(t *testing.T) {
	sizes := []struct{ m, n, k int }{
		{1, 1, 1}, {5, 7, 3}, {6, 16, 1}, {12, 32, 9}, {13, 33, 257},
		{97, 50, 300}, {200, 17, 12}, {40, 648, 30}, {3, 5, 0}, {0, 5, 3}, {4, 0, 3},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for name, kern := range kernelsUnderTest() {
		g := newGemm(kern, 0)
		for _, sz := range sizes {
			for _, ta := range []bool{false, true} {
				for _, tb := range []bool{false, true} {
					a := randomMatrix(rng, sz.m, sz.k, ta)
					b := randomMatrix(rng, sz.k, sz.n, tb)
					ldc := sz.n + 3 // a padded row: the product must not touch the padding
					c := make([]float32, sz.m*ldc)
					for i := range c {
						c[i] = float32(rng.NormFloat64())
					}
					want := make([]float64, len(c))
					for i := 0; i < sz.m; i++ {
						for j := 0; j < ldc; j++ {
							if j >= sz.n {
								want[i*ldc+j] = float64(c[i*ldc+j])
								continue
							}
							for p := 0; p < sz.k; p++ {
								want[i*ldc+j] += float64(a.at(i, p)) * float64(b.at(p, j))
							}
						}
					}
					g.mul(sz.m, sz.n, sz.k, a, b, c, ldc)
					tol := 1e-5 * float64(max(sz.k, 1))
					for i, w := range want {
						if math.Abs(float64(c[i])-w) > tol*(1+math.Abs(w)) {
							t.Fatalf("%s m=%d n=%d k=%d transA=%v transB=%v: C[%d,%d] = %v, want %v",
								name, sz.m, sz.n, sz.k, ta, tb, i/ldc, i%ldc, c[i], w)
						}
					}
				}
			}
		}
	}
}

// TestGemmWorkersAgree checks that the result is bit-identical whatever
// the number of workers, at shapes where mul cuts the columns of C into
// groups (few row blocks, many panels: the weight gradients), where the
// inner dimension spans several groups of packed blocks of B, where a
// partial panel ends the last group, and where the rows are cut finer
// than mc.
func TestGemmWorkersAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sz := range []struct {
		m, n, k    int
		transA, tB bool
	}{
		{300, 70, 600, false, true},
		{648, 648, 1797, true, false}, // ∂W of a CHAR hidden layer
		{11, 648, 1797, true, false},  // ∂W of its input layer
		{97, 2100, 300, false, false}, // more than nc columns
		{130, 200, 12000, true, true}, // B packed in two groups of blocks
		{120, 120, 5000, true, false}, // ∂W of a uniform hidden layer: rows cut finer
		{17, 2, 3000, true, false},
		{0, 30, 100, false, false}, // an empty batch
	} {
		a, b := randomMatrix(rng, sz.m, sz.k, sz.transA), randomMatrix(rng, sz.k, sz.n, sz.tB)
		run := func(threads int) []float32 {
			c := make([]float32, sz.m*sz.n)
			for i := range c {
				c[i] = float32(rng.NormFloat64()) // mul must overwrite it
			}
			g := newGemm(bestKernel(), threads)
			if len(g.packA) != threads {
				t.Fatalf("%d threads: %d workers", threads, len(g.packA))
			}
			g.mul(sz.m, sz.n, sz.k, a, b, c, sz.n)
			return c
		}
		one := run(1)
		for _, threads := range []int{2, 3, 7, 16} {
			many := run(threads)
			for i := range one {
				if math.Float32bits(one[i]) != math.Float32bits(many[i]) {
					t.Fatalf("m=%d n=%d k=%d: C[%d] = %v with 1 worker, %v with %d",
						sz.m, sz.n, sz.k, i, one[i], many[i], threads)
				}
			}
		}
	}
}

// at returns element (i, j) of m.
func (m matrix) at(i, j int) float32 {
	if m.trans {
		return m.data[j*m.stride+i]
	}
	return m.data[i*m.stride+j]
}

// randomMatrix returns an r×c operand with normal entries, stored
// transposed when trans is set.
func randomMatrix(rng *rand.Rand, r, c int, trans bool) matrix {
	data := make([]float32, r*c)
	for i := range data {
		data[i] = float32(rng.NormFloat64())
	}
	if trans {
		return matrix{data: data, stride: r, trans: true}
	}
	return matrix{data: data, stride: c}
}

// TestGemmCut checks how mul cuts products into tasks: whole mc-row blocks
// and every panel on one worker; otherwise at least tasksPerWorker tasks a
// worker where the product has that many tiles, rows a multiple of mr.
func TestGemmCut(t *testing.T) {
	kern := microKernel{mr: 12, nr: 32}
	for _, tc := range []struct {
		name                      string
		workers, m, panels        int
		wantRows, wantGroupPanels int
	}{
		{"one worker", 1, 1797, 21, mc, 21},
		{"CHAR forward, 16 workers", 16, 1797, 21, mc, 6}, // 19 row blocks × 4 groups
		{"CHAR forward, 2 workers", 2, 1797, 21, mc, 21},  // 19 row blocks are enough
		{"CHAR ∂W, 16 workers", 16, 648, 21, 60, 4},       // 11 row tasks × 6 groups
		{"uniform ∂W, 16 workers", 16, 120, 4, 12, 1},     // 10 × 4 single tiles
		{"input layer ∂W, 16 workers", 16, 17, 4, 12, 1},  // 2 × 4: all there are
		{"more workers than tiles", 64, 12, 1, 12, 1},     // one tile
		{"CHAR ∂W, 2 workers", 2, 648, 21, mc, 11},        // 7 row blocks × 2 groups
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &gemm{kern: kern, packA: make([][]float32, tc.workers)}
			rows, gp := g.cut(tc.m, tc.panels)
			if rows != tc.wantRows || gp != tc.wantGroupPanels {
				t.Errorf("cut(%d, %d) on %d workers = %d rows × %d panels, want %d × %d",
					tc.m, tc.panels, tc.workers, rows, gp, tc.wantRows, tc.wantGroupPanels)
			}
			if rows%kern.mr != 0 || rows > mc {
				t.Errorf("%d rows: not a multiple of mr = %d at most mc = %d", rows, kern.mr, mc)
			}
		})
	}
}

// TestPackPanels checks packPanels against its definition (panel s, row p,
// column j holds element (p0+p, q0+s·w+j) of the operand, or of its
// transpose when packing A, zero past q1) for each panel width the kernels
// use and one they do not, both layouts of the operand, and a partial last
// panel; guard values past the panels must keep their values.
func TestPackPanels(t *testing.T) {
	const guard = float32(-7.5)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, w := range []int{6, 12, 16, 32, 5} {
		for _, columns := range []bool{false, true} {
			for _, trans := range []bool{false, true} {
				for _, q := range []struct{ q0, q1 int }{{0, 4 * w}, {3, 3 + 2*w + w/2 + 1}} {
					p0, p1 := 2, 2+kc/4
					// An operand whose packed dimension (columns of B, rows
					// of A) has q1 entries and whose other one has p1.
					r, c := p1, q.q1
					if columns {
						r, c = c, r
					}
					x := randomMatrix(rng, r, c, trans)
					kLen := p1 - p0
					panels := (q.q1 - q.q0 + w - 1) / w
					dst := make([]float32, panels*kLen*w+w)
					for i := range dst {
						dst[i] = guard
					}
					packPanels(dst, x, p0, p1, q.q0, q.q1, w, columns)
					for s := 0; s < panels; s++ {
						for p := 0; p < kLen; p++ {
							for j := 0; j < w; j++ {
								var want float32
								if col := q.q0 + s*w + j; col < q.q1 {
									if columns {
										want = x.at(col, p0+p)
									} else {
										want = x.at(p0+p, col)
									}
								}
								if got := dst[(s*kLen+p)*w+j]; got != want {
									t.Fatalf("w=%d columns=%v trans=%v q=%v: panel %d row %d column %d = %v, want %v",
										w, columns, trans, q, s, p, j, got, want)
								}
							}
						}
					}
					for i, v := range dst[panels*kLen*w:] {
						if v != guard {
							t.Fatalf("w=%d columns=%v trans=%v q=%v: guard %d overwritten with %v", w, columns, trans, q, i, v)
						}
					}
				}
			}
		}
	}
}
