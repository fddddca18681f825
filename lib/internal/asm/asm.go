package asm

import (
	"fmt"
	"math"

	"github.com/oe-lab/oe/lib/internal/numeric"
)

// Axpy4Rows adds to y, group by group, rows of x scaled by a, four at a
// time: group g adds ((a[4g]·x₀[l] + a[4g+1]·x₁[l]) + a[4g+2]·x₂[l]) +
// a[4g+3]·x₃[l] to y[l], each product rounded, x₀…x₃ the rows rows[4g]…
// rows[4g+3] of x, x_r being x[r·stride : r·stride+len(y)]. Four rows per
// pass load and store y once for four multiply-adds instead of once per
// row. It takes the first
// 4·⌊len(rows)/4⌋ entries of rows and a and returns that count: the caller
// adds the rest. One call per sparse row instead of one per group of four
// saves the calls and the short tail loops (lib/gram's sparse product). It
// panics if a is shorter than rows or a row of x is out of range.
func Axpy4Rows(a []float64, rows []int32, x []float64, stride int, y []float64) int {
	used := len(rows) &^ 3
	a, rows = a[:used], rows[:used]
	if used == 0 {
		return 0
	}
	lo, hi := rows[0], rows[0]
	for _, r := range rows {
		lo, hi = min(lo, r), max(hi, r)
	}
	if lo < 0 || int(hi)*stride+len(y) > len(x) || stride < len(y) {
		panic(fmt.Sprintf("asm: Axpy4Rows: rows %d to %d of stride %d and length %d outside %d values", lo, hi, stride, len(y), len(x)))
	}
	axpy4Rows(a, rows, x, stride, y)
	return used
}

// axpy4RowsGo is Axpy4Rows in Go (its checks done), the twin of
// axpy4RowsAVX2.
func axpy4RowsGo(a []float64, rows []int32, x []float64, stride int, y []float64) {
	row := func(r int32) []float64 { return x[int(r)*stride : int(r)*stride+len(y)] }
	for g := 0; g+4 <= len(rows); g += 4 {
		axpy4Go(a[g:g+4], row(rows[g]), row(rows[g+1]), row(rows[g+2]), row(rows[g+3]), y)
	}
}

// MulAdd4x8 adds to the 4×8 tile c, its rows ldc apart, the products of
// four rows of a with the k×8 panel b (row l at b[8l:8l+8]), one l at a
// time: c[r·ldc+j] += a(r,l)·b[8l+j] for l = 0, 1, …, k−1, each product
// rounded and added on its own, where a(r,l) = a[r·rs+l·ls]. Those are the
// operations gonum's Dgemm performs on an entry of its result (it adds a
// row's products one l at a time with AxpyUnitary, skipping zero entries
// of a, which adds nothing to finite sums), so a product built from these
// tiles equals gonum's bit for bit, at 2.6 to 4.6 times its speed
// (lib/gram's dense products). It panics if a, b or c is too short or
// ldc < 8.
func MulAdd4x8(k int, a []float64, rs, ls int, b, c []float64, ldc int) {
	if k < 0 || rs < 0 || ls < 0 || ldc < 8 || len(b) < 8*k || len(c) < 3*ldc+8 ||
		(k > 0 && len(a) <= 3*rs+(k-1)*ls) {
		panic(fmt.Sprintf("asm: MulAdd4x8: %d products of a (%d values, strides %d and %d) and b (%d) into c (%d values, stride %d)", k, len(a), rs, ls, len(b), len(c), ldc))
	}
	if k == 0 {
		return
	}
	mulAdd4x8(k, a, rs, ls, b, c, ldc)
}

// mulAdd4x8Go is MulAdd4x8 in Go (its checks done), the twin of
// mulAdd4x8AVX2.
func mulAdd4x8Go(k int, a []float64, rs, ls int, b, c []float64, ldc int) {
	for r := 0; r < 4; r++ {
		row := c[r*ldc : r*ldc+8]
		for l := 0; l < k; l++ {
			v, bl := a[r*rs+l*ls], b[8*l:8*l+8]
			for j := range row {
				row[j] += float64(v * bl[j])
			}
		}
	}
}

// BiasReLU sets row[j] = max(row[j]+b[j], 0), with Go's max: NaN stays NaN
// and −0 becomes +0, so that the result has a zero bit pattern exactly where
// the ReLU clamped (MaskReLU relies on it). It panics if b is shorter than
// row.
func BiasReLU(row, b []float32) { biasReLU(row, b) }

// MaskReLU zeroes g[i] where act[i] is +0 (where BiasReLU clamped): a ReLU
// passes no gradient there. It panics if g is shorter than act.
func MaskReLU(g, act []float32) { maskReLU(g, act) }

// SumRows adds to out the first len(out) entries of rows consecutive rows
// of x, stride floats apart, summing each column in row order. It panics if
// x is too short.
func SumRows(out, x []float32, rows, stride int) { sumRows(out, x, rows, stride) }

// Transpose4Rows writes four rows of x, stride floats apart, down four
// adjacent columns of dst, whose rows are w ≥ 4 floats apart: dst[p·w+r] =
// x[r·stride+p] for r < 4 and p < n. It packs the blocks of a product's
// operand whose panel columns are rows in memory (lib/oenn), eight entries
// of each row at a time where the CPU allows. It panics if w < 4 or dst or
// x is too short.
func Transpose4Rows(dst []float32, w int, x []float32, stride, n int) {
	if w < 4 {
		panic(fmt.Sprintf("asm: Transpose4Rows: rows of %d floats hold no four columns", w))
	}
	if n == 0 {
		return
	}
	_, _ = dst[(n-1)*w+3], x[3*stride+n-1]
	transpose4Rows(dst, w, x, stride, n)
}

// transpose4RowsGo is Transpose4Rows in Go (its checks done), the twin of
// transpose4RowsAVX2.
func transpose4RowsGo(dst []float32, w int, x []float32, stride, n int) {
	r0, r1, r2, r3 := x[:n], x[stride:stride+n], x[2*stride:2*stride+n], x[3*stride:3*stride+n]
	for p := range r0 {
		out := dst[p*w : p*w+4]
		out[0], out[1], out[2], out[3] = r0[p], r1[p], r2[p], r3[p]
	}
}

// SoftplusSigmoids sets softplus[i], sigmoid[i] = numeric.SoftplusSigmoid(z[i])
// for every i of z, bit for bit (four at a time where the CPU allows). It
// panics if softplus or sigmoid is shorter than z.
func SoftplusSigmoids(z, softplus, sigmoid []float64) { softplusSigmoids(z, softplus, sigmoid) }

// softplusSigmoidsGo is SoftplusSigmoids in Go, the twin of
// softplusSigmoidAVX2 and its tail.
func softplusSigmoidsGo(z, softplus, sigmoid []float64) {
	softplus, sigmoid = softplus[:len(z)], sigmoid[:len(z)]
	for i, v := range z {
		softplus[i], sigmoid[i] = numeric.SoftplusSigmoid(v)
	}
}

// axpy4Go adds one group to y in Go: the twin of axpy4RowsAVX2's loops.
func axpy4Go(a, x0, x1, x2, x3, y []float64) {
	a = a[:4]
	a0, a1, a2, a3 := a[0], a[1], a[2], a[3]
	x0, x1, x2, x3 = x0[:len(y)], x1[:len(y)], x2[:len(y)], x3[:len(y)]
	for l := range y {
		y[l] += float64(a0*x0[l]) + float64(a1*x1[l]) + float64(a2*x2[l]) + float64(a3*x3[l])
	}
}

// biasReLUGo is BiasReLU in Go, without a branch: the signs are random, so a
// branch would be mispredicted half the time.
func biasReLUGo(row, b []float32) {
	b = b[:len(row)]
	for j, v := range row {
		row[j] = max(v+b[j], 0)
	}
}

// maskReLUGo is MaskReLU in Go, building the mask without a branch.
func maskReLUGo(g, act []float32) {
	g = g[:len(act)]
	for i, v := range act {
		b := math.Float32bits(v)
		keep := -((b | -b) >> 31) // all ones where v ≠ +0, else zero
		g[i] = math.Float32frombits(math.Float32bits(g[i]) & keep)
	}
}

// sumRowsGo is SumRows in Go.
func sumRowsGo(out, x []float32, rows, stride int) {
	for i := 0; i < rows; i++ {
		for j, v := range x[i*stride : i*stride+len(out)] {
			out[j] += v
		}
	}
}

// AdamConstants are the constants of one step of lib/optim's Adam (its
// Constants): the moments decay by Beta1 and Beta2, and the step is
// StepSize · m / (√v̂ / BC2Sqrt + Eps).
type AdamConstants[F ~float32 | ~float64] struct {
	StepSize, BC2Sqrt, Beta1, Beta2, Eps F
}

// Adam advances the moments m and v of the parameters x with their
// gradient g by one step of Adam with constants k, entry by entry:
//
//	m ← β₁m + (1−β₁)g,  v ← β₂v + ((1−β₂)g)g,  v̂ ← max(v̂, v) (AMSGrad, where vmax is not nil)
//	step = StepSize·m / (√v̂ / BC2Sqrt + Eps)
//
// (v̂ is v without AMSGrad), each product rounded and max being Go's, and
// then sets x[e] −= step where apply is set, else x[e] = step. It is
// lib/optim's update; AMSGrad's float32 update of the parameters (OENN's and
// the embedding methods') runs eight entries at a time where the CPU allows.
// It panics if the slices (vmax, when not nil) differ in length.
func Adam[F ~float32 | ~float64](k AdamConstants[F], x, g, m, v, vmax []F, apply bool) {
	n := len(x)
	if len(g) != n || len(m) != n || len(v) != n || (vmax != nil && len(vmax) != n) {
		panic(fmt.Sprintf("asm: Adam: %d parameters, %d gradient entries, moments of %d, %d and %d", n, len(g), len(m), len(v), len(vmax)))
	}
	head := 0
	if x32, ok := any(x).([]float32); ok && vmax != nil && apply {
		k32 := any(k).(AdamConstants[float32])
		head = amsgradHead32(k32, x32, any(g).([]float32), any(m).([]float32), any(v).([]float32), any(vmax).([]float32))
	}
	if vmax != nil {
		vmax = vmax[head:]
	}
	adamGo(k, x[head:], g[head:], m[head:], v[head:], vmax, apply)
}

// adamGo is Adam in Go (its checks done), the twin of amsgradAVX2.
func adamGo[F ~float32 | ~float64](k AdamConstants[F], x, g, m, v, vmax []F, apply bool) {
	n := len(x)
	g, m, v = g[:n], m[:n], v[:n]
	if vmax != nil {
		vmax = vmax[:n]
	}
	c1, c2 := 1-k.Beta1, 1-k.Beta2
	for e, ge := range g {
		// The conversions round each product before the addition: without
		// them Go may fuse multiply and add on some architectures (arm64).
		me := F(k.Beta1*m[e]) + F(c1*ge)
		ve := F(k.Beta2*v[e]) + F(F(c2*ge)*ge)
		m[e], v[e] = me, ve
		den := ve
		if vmax != nil {
			den = max(vmax[e], ve)
			vmax[e] = den
		}
		step := k.StepSize * me / (F(math.Sqrt(float64(den)))/k.BC2Sqrt + k.Eps)
		if apply {
			x[e] -= step
		} else {
			x[e] = step
		}
	}
}
