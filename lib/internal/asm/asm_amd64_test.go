//go:build !noasm

package asm

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// guard64 and guard32 are written around every slice the assembly reads or
// writes, so that a write out of bounds shows, as in gonum's asm tests.
const (
	guard64 = -7.5e300
	guard32 = float32(-7.5e33)
	gap     = 8
)

// guarded returns a copy of v with gap guard values on each side, and the
// part of the copy that holds v.
func guarded[F float32 | float64](v []F, guard F) (whole, inner []F) {
	whole = make([]F, len(v)+2*gap)
	for e := range whole {
		whole[e] = guard
	}
	copy(whole[gap:], v)
	return whole, whole[gap : gap+len(v)]
}

// guardsKept reports whether the gap entries at each end of whole still
// hold guard.
func guardsKept[F float32 | float64](whole []F, guard F) bool {
	for e := range gap {
		if whole[e] != guard || whole[len(whole)-1-e] != guard {
			return false
		}
	}
	return true
}

// bitsDiffer reports whether a and b differ in their bits at some entry,
// any NaN matching any NaN (a NaN's sign and payload carry nothing).
func bitsDiffer[F float32 | float64](a, b []F) int {
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		if math.Float64bits(x) != math.Float64bits(y) && !(x != x && y != y) {
			return i
		}
	}
	return -1
}

// TestReLUPassesMatchGo holds the assembly element-wise loops to their Go
// twins bit for bit, with guard values around every slice, on lengths with
// and without tails and on the special values ReLU must treat as Go's max
// does (NaN, ±0, ±Inf).
func TestReLUPassesMatchGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("this CPU has no AVX2: only the Go twins run")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float32{float32(math.NaN()), 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1))}
	fill := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			if rng.IntN(6) == 0 {
				v[i] = special[rng.IntN(len(special))]
			} else {
				v[i] = float32(rng.NormFloat64())
			}
		}
		return v
	}
	check := func(name string, n int, asm, goTwin []float32, wholes ...[]float32) {
		t.Helper()
		if i := bitsDiffer(asm, goTwin); i >= 0 {
			t.Fatalf("%s n=%d: entry %d is %v (%#x) in assembly, %v (%#x) in Go", name, n, i, asm[i], math.Float32bits(asm[i]), goTwin[i], math.Float32bits(goTwin[i]))
		}
		for _, w := range wholes {
			if !guardsKept(w, guard32) {
				t.Fatalf("%s n=%d: written out of bounds", name, n)
			}
		}
	}
	for _, n := range []int{1, 7, 8, 9, 64, 100, 648} {
		row, b := fill(n), fill(n)
		goRow := append([]float32(nil), row...)
		rw, rg := guarded(row, guard32)
		bw, bg := guarded(b, guard32)
		BiasReLU(rg, bg)
		biasReLUGo(goRow, b)
		check("BiasReLU", n, rg, goRow, rw, bw)

		// The activations a mask sees are ReLU outputs: +0 where clamped.
		act := fill(n)
		biasReLUGo(act, make([]float32, n))
		g := fill(n)
		goG := append([]float32(nil), g...)
		gw, gg := guarded(g, guard32)
		aw, ag := guarded(act, guard32)
		MaskReLU(gg, ag)
		maskReLUGo(goG, act)
		check("MaskReLU", n, gg, goG, gw, aw)

		rows := 1 + rng.IntN(40)
		stride := n + rng.IntN(5)
		x := fill(rows * stride)
		for i := range x {
			if x[i] != x[i] || math.IsInf(float64(x[i]), 0) {
				x[i] = 1 // sums of specials would hide order differences
			}
		}
		out := make([]float32, n)
		for i := range out {
			out[i] = float32(rng.NormFloat64())
		}
		goOut := append([]float32(nil), out...)
		ow, og := guarded(out, guard32)
		xw, xg := guarded(x, guard32)
		SumRows(og, xg, rows, stride)
		sumRowsGo(goOut, x, rows, stride)
		check("SumRows", n, og, goOut, ow, xw)
	}
}

// TestSoftplusSigmoidsMatchGo holds the assembly SoftplusSigmoids to
// numeric.SoftplusSigmoid bit for bit: on arguments of every scale, both
// signs, zeros, the flush threshold and its neighbours, infinities and NaN,
// on lengths with and without a tail.
func TestSoftplusSigmoidsMatchGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("this CPU has no AVX2: only the Go twins run")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	special := []float64{0, math.Copysign(0, -1), 708, -708, math.Nextafter(708, 0), math.Nextafter(708, 800),
		-math.Nextafter(708, 0), -math.Nextafter(708, 800), 745, -745, 800, -800, math.Inf(1), math.Inf(-1),
		math.NaN(), 1e-300, -1e-300, 5e-324, 0.3465, -0.3466, 0.881373587019543, -0.881373587019543}
	for _, n := range []int{1, 3, 4, 5, 8, 17, 64, 1000, 100003} {
		z := make([]float64, n)
		for i := range z {
			switch i % 4 {
			case 0:
				z[i] = special[rng.IntN(len(special))]
			case 1:
				z[i] = rng.NormFloat64()
			default:
				z[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
			}
		}
		lw, l := guarded(make([]float64, n), guard64)
		sw, s := guarded(make([]float64, n), guard64)
		SoftplusSigmoids(z, l, s)
		wantL, wantS := make([]float64, n), make([]float64, n)
		softplusSigmoidsGo(z, wantL, wantS)
		if i := bitsDiffer(l, wantL); i >= 0 {
			t.Fatalf("n=%d: softplus(%v) = %v in assembly, %v in Go", n, z[i], l[i], wantL[i])
		}
		if i := bitsDiffer(s, wantS); i >= 0 {
			t.Fatalf("n=%d: sigmoid(%v) = %v in assembly, %v in Go", n, z[i], s[i], wantS[i])
		}
		if !guardsKept(lw, guard64) || !guardsKept(sw, guard64) {
			t.Fatalf("n=%d: written outside the results", n)
		}
	}
}

func BenchmarkSoftplusSigmoids(b *testing.B) {
	z := make([]float64, 64)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range z {
		z[i] = 8 * rng.NormFloat64()
	}
	l, s := make([]float64, len(z)), make([]float64, len(z))
	for _, tc := range []struct {
		name string
		f    func(z, l, s []float64)
	}{{"assembly", SoftplusSigmoids}, {"go", softplusSigmoidsGo}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				tc.f(z, l, s)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(z)), "ns/value")
		})
	}
}

// TestAxpy4RowsMatchesGo holds the assembly Axpy4Rows to its Go twin and to
// axpy4Go called group by group, bit for bit, on row lengths with and without
// a tail of every length (45 and 75 are the Krylov blocks of d = 30 and
// 50), y between guards that adding a product would change, with a stride
// wider than the rows, and on row counts that leave a remainder.
func TestAxpy4RowsMatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("this CPU has no AVX2: only the Go twins run")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{1, 2, 3, 4, 5, 6, 15, 16, 17, 45, 75} {
		for _, count := range []int{0, 3, 4, 9, 64} {
			stride, items := n+2, 50
			x := make([]float64, stride*items)
			for e := range x {
				x[e] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
			}
			a := make([]float64, count)
			rows := make([]int32, count)
			for e := range a {
				a[e], rows[e] = rng.NormFloat64(), int32(rng.IntN(items))
			}
			y := make([]float64, n)
			for e := range y {
				y[e] = rng.NormFloat64()
			}
			want := append([]float64(nil), y...)
			perGroup := append([]float64(nil), y...)
			row := func(r int32) []float64 { return x[int(r)*stride : int(r)*stride+n] }
			for g := 0; g+4 <= count; g += 4 {
				axpy4Go(a[g:g+4], row(rows[g]), row(rows[g+1]), row(rows[g+2]), row(rows[g+3]), perGroup)
			}
			useAVX2 = false
			axpy4RowsGo(a[:count&^3], rows[:count&^3], x, stride, want)
			useAVX2 = true
			yw, yg := guarded(y, 1.5) // a guard that adding a product would change, unlike guard64
			used := Axpy4Rows(a, rows, x, stride, yg)
			if used != count&^3 {
				t.Fatalf("n=%d, %d rows: used %d", n, count, used)
			}
			if i := bitsDiffer(yg, want); i >= 0 {
				t.Fatalf("n=%d, %d rows: y[%d] = %v in assembly, %v in Go", n, count, i, yg[i], want[i])
			}
			if i := bitsDiffer(yg, perGroup); i >= 0 {
				t.Fatalf("n=%d, %d rows: y[%d] = %v, %v by group in Go", n, count, i, yg[i], perGroup[i])
			}
			if !guardsKept(yw, 1.5) {
				t.Fatalf("n=%d, %d rows: written outside y", n, count)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a row outside x did not panic")
		}
	}()
	Axpy4Rows([]float64{1, 1, 1, 1}, []int32{0, 1, 2, 50}, make([]float64, 100), 2, make([]float64, 2))
}

// TestMulAdd4x8MatchesGo holds the assembly tile product to its Go twin bit
// for bit, with a's rows side by side (rs = 1, a transposed operand) and one
// after another (ls = 1), from one product to more than a cache block, on a
// c whose rows are wider than the tile: the entries between the tile's rows
// and around it are guards that must be kept.
func TestMulAdd4x8MatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("this CPU has no AVX2: only the Go twins run")
	}
	rng := rand.New(rand.NewPCG(15, 16))
	value := func() float64 { return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4)) }
	for _, k := range []int{1, 2, 7, 64, 301} {
		for _, layout := range []struct{ rs, ls int }{{1, 6}, {k + 3, 1}} {
			a := make([]float64, 3*layout.rs+(k-1)*layout.ls+1)
			b := make([]float64, 8*k)
			for e := range a {
				a[e] = value()
			}
			for e := range b {
				b[e] = value()
			}
			const ldc = 11
			c := make([]float64, 3*ldc+8)
			for e := range c {
				c[e] = guard64
				if e%ldc < 8 {
					c[e] = value()
				}
			}
			want := slices.Clone(c)
			mulAdd4x8Go(k, a, layout.rs, layout.ls, b, want, ldc)
			cw, cg := guarded(c, guard64)
			MulAdd4x8(k, a, layout.rs, layout.ls, b, cg, ldc)
			if i := bitsDiffer(cg, want); i >= 0 {
				t.Fatalf("k=%d, strides %d and %d: c[%d] = %v in assembly, %v in Go", k, layout.rs, layout.ls, i, cg[i], want[i])
			}
			if !guardsKept(cw, guard64) {
				t.Fatalf("k=%d, strides %d and %d: written outside c", k, layout.rs, layout.ls)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("an a too short for its strides did not panic")
		}
	}()
	MulAdd4x8(2, make([]float64, 10), 3, 1, make([]float64, 16), make([]float64, 32), 8)
}

// TestTranspose4RowsMatchesGo holds the assembly transpose to its Go twin,
// which sets every entry by its definition, on lengths with and without a
// tail past the blocks of eight and on row widths w from 4 up; dst is
// filled with guards first, so that entries between the four columns of a
// row, which neither may write, must keep them, and guards around dst and x
// catch accesses out of bounds.
func TestTranspose4RowsMatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("this CPU has no AVX2: only the Go twins run")
	}
	rng := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{1, 7, 8, 9, 16, 23, 256} {
		for _, w := range []int{4, 6, 12, 32} {
			stride := n + 3
			x := make([]float32, 3*stride+n)
			for e := range x {
				x[e] = float32(rng.NormFloat64())
			}
			fresh := func() []float32 {
				d := make([]float32, (n-1)*w+4)
				for e := range d {
					d[e] = guard32
				}
				return d
			}
			want := fresh()
			transpose4RowsGo(want, w, x, stride, n)
			for p := range n {
				for r := range 4 {
					if want[p*w+r] != x[r*stride+p] {
						t.Fatalf("n=%d w=%d: Go twin's dst[%d·w+%d] = %v, want x[%d·stride+%d] = %v", n, w, p, r, want[p*w+r], r, p, x[r*stride+p])
					}
				}
			}
			dw, dg := guarded(fresh(), guard32)
			xw, xg := guarded(x, guard32)
			Transpose4Rows(dg, w, xg, stride, n)
			if i := bitsDiffer(dg, want); i >= 0 {
				t.Fatalf("n=%d w=%d: dst[%d] = %v in assembly, %v in Go", n, w, i, dg[i], want[i])
			}
			if !guardsKept(dw, guard32) || !guardsKept(xw, guard32) {
				t.Fatalf("n=%d w=%d: written outside dst or x", n, w)
			}
		}
	}
}

// BenchmarkTranspose4Rows packs four rows of 256 entries (one kc block of
// lib/oenn's products) into a panel of 12 columns.
func BenchmarkTranspose4Rows(b *testing.B) {
	const n, w, stride = 256, 12, 120 * 256
	x := make([]float32, 3*stride+n)
	dst := make([]float32, n*w)
	for _, tc := range []struct {
		name string
		avx2 bool
	}{{"go", false}, {"avx2", true}} {
		b.Run(tc.name, func(b *testing.B) {
			saved := useAVX2
			defer func() { useAVX2 = saved }()
			useAVX2 = tc.avx2 && saved
			for b.Loop() {
				Transpose4Rows(dst, w, x, stride, n)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(4*n), "ns/float")
		})
	}
}

// TestAdamMatchesGo holds the assembly AMSGrad update of float32
// parameters to its Go twin bit for bit, with guard values around every
// slice: on lengths with and without a tail, steps early and late (the
// bias corrections), and moments and gradients that take each branch of
// Go's max(v̂, v): NaN on either side, ±0 on both, equal values, either
// larger.
func TestAdamMatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("this CPU has no AVX2: only the Go twins run")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	nan, negZero := float32(math.NaN()), float32(math.Copysign(0, -1))
	pick := func(normal float32, special ...float32) float32 {
		if rng.IntN(4) == 0 {
			return special[rng.IntN(len(special))]
		}
		return normal
	}
	for _, n := range []int{1, 7, 8, 9, 16, 23, 64, 1003} {
		for _, steps := range []int{1, 2, 50, 5000} {
			const lr, beta1, beta2 = 0.005, 0.9, 0.999
			k := AdamConstants[float32]{
				StepSize: float32(lr / (1 - math.Pow(beta1, float64(steps)))),
				BC2Sqrt:  float32(math.Sqrt(1 - math.Pow(beta2, float64(steps)))),
				Beta1:    beta1, Beta2: beta2, Eps: 1e-8,
			}
			x, g, m, v, vmax := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
			for e := range x {
				x[e] = float32(rng.NormFloat64())
				g[e] = pick(float32(rng.NormFloat64()*math.Pow(10, float64(rng.IntN(9)-4))), 0, negZero, nan, float32(math.Inf(1)))
				m[e] = pick(float32(rng.NormFloat64()*0.1), 0, negZero, nan)
				v[e] = pick(float32(rng.ExpFloat64()*0.01), 0, negZero, nan, -1)
				switch rng.IntN(5) {
				case 0: // v̂ equal to the new v: g = 0 keeps β₂v
					g[e], vmax[e] = 0, float32(k.Beta2*v[e])
				case 1:
					vmax[e] = pick(0, negZero, nan)
				default:
					vmax[e] = float32(rng.ExpFloat64() * 0.01)
				}
			}
			wantX, wantM, wantV, wantVmax := slices.Clone(x), slices.Clone(m), slices.Clone(v), slices.Clone(vmax)
			adamGo(k, wantX, g, wantM, wantV, wantVmax, true)
			xw, xa := guarded(x, guard32)
			gw, ga := guarded(g, guard32)
			mw, ma := guarded(m, guard32)
			vw, va := guarded(v, guard32)
			vmw, vma := guarded(vmax, guard32)
			Adam(k, xa, ga, ma, va, vma, true)
			for _, c := range []struct {
				name      string
				got, want []float32
			}{{"x", xa, wantX}, {"m", ma, wantM}, {"v", va, wantV}, {"vmax", vma, wantVmax}, {"g", ga, g}} {
				if i := bitsDiffer(c.got, c.want); i >= 0 {
					t.Fatalf("n=%d, step %d: %s[%d] is %v (%#x) in assembly, %v (%#x) in Go (g %v, m %v, v %v, v̂ %v)", n, steps, c.name, i,
						c.got[i], math.Float32bits(c.got[i]), c.want[i], math.Float32bits(c.want[i]), g[i], m[i], v[i], vmax[i])
				}
			}
			for _, w := range [][]float32{xw, gw, mw, vw, vmw} {
				if !guardsKept(w, guard32) {
					t.Fatalf("n=%d, step %d: written outside the slices", n, steps)
				}
			}
		}
	}
}

// BenchmarkAdam times one AMSGrad update of OENN's parameters on CHAR
// (d = 30: 868,600 of them), assembly and Go.
func BenchmarkAdam(b *testing.B) {
	const n = 868_600
	x, g, m, v, vmax := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	rng := rand.New(rand.NewPCG(1, 2))
	for e := range g {
		g[e] = float32(rng.NormFloat64() * 1e-3)
	}
	k := AdamConstants[float32]{StepSize: 0.005, BC2Sqrt: 0.5, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}
	for _, bc := range []struct {
		name string
		asm  bool
	}{{"avx2", true}, {"go", false}} {
		b.Run(bc.name, func(b *testing.B) {
			if bc.asm && !useAVX2 {
				b.Skip("this CPU has no AVX2")
			}
			defer func(was bool) { useAVX2 = was }(useAVX2)
			useAVX2 = bc.asm
			for b.Loop() {
				Adam(k, x, g, m, v, vmax, true)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/param")
		})
	}
}
