package asm

import (
	"math"
	"slices"
	"testing"
)

// TestPrimitives checks each primitive, on whichever code this build and
// CPU run, against values worked out by hand, with lengths above the
// assembly's minimum so that both the vector head and the tail are used.
func TestPrimitives(t *testing.T) {
	t.Run("Axpy4Rows", func(t *testing.T) {
		const n, stride = 19, 20
		x := make([]float64, 4*stride)
		y := make([]float64, n)
		for l := range y {
			x[l], x[stride+l], x[2*stride+l], x[3*stride+l], y[l] = 1, float64(l), -2, 0.5, 100
		}
		// Rows 0–3 scaled by 3, 2, 1, 4, then row 1 alone: left to the caller.
		if used := Axpy4Rows([]float64{3, 2, 1, 4, 7}, []int32{0, 1, 2, 3, 1}, x, stride, y); used != 4 {
			t.Errorf("used %d entries, want 4", used)
		}
		for l, v := range y {
			// 100 + 3·1 + 2·l + 1·(−2) + 4·0.5 = 103 + 2l
			if want := 103 + 2*float64(l); v != want {
				t.Errorf("y[%d] = %v, want %v", l, v, want)
			}
		}
	})
	t.Run("Adam", func(t *testing.T) {
		// β₁ = ½, β₂ = ¾, step size 1, no bias correction or ε, g = 2:
		// m ← m/2 + 1, v ← 0 + (¼·2)·2 = 1, v̂ = max(v̂, 1), x ← x − m/√v̂.
		const n = 11
		k := AdamConstants[float32]{StepSize: 1, BC2Sqrt: 1, Beta1: 0.5, Beta2: 0.75}
		x, g, m, v, vmax := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
		for e := range x {
			x[e], g[e], m[e] = 10, 2, float32(e)
			if e%2 == 0 {
				vmax[e] = 4
			}
		}
		Adam(k, x, g, m, v, vmax, true)
		for e := range x {
			me, den := float32(e)/2+1, float32(1)
			if e%2 == 0 {
				den = 4
			}
			wantX := 10 - me/float32(math.Sqrt(float64(den)))
			if x[e] != wantX || m[e] != me || v[e] != 1 || vmax[e] != den {
				t.Errorf("entry %d: x, m, v, v̂ = %v, %v, %v, %v, want %v, %v, 1, %v", e, x[e], m[e], v[e], vmax[e], wantX, me, den)
			}
		}
	})
	t.Run("MulAdd4x8", func(t *testing.T) {
		// a = [[1 2 3] [4 5 6] [7 8 9] [10 11 12]] stored by columns
		// (rs = 1, ls = 4); b's rows are 1, j and −1 in every column j;
		// c starts at 100: c[r][j] = 100 + a(r,0) + a(r,1)·j − a(r,2).
		a := []float64{1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 12}
		b := make([]float64, 24)
		for j := range 8 {
			b[j], b[8+j], b[16+j] = 1, float64(j), -1
		}
		const ldc = 9
		c := make([]float64, 3*ldc+8)
		for e := range c {
			c[e] = 100
		}
		MulAdd4x8(3, a, 1, 4, b, c, ldc)
		for r := range 4 {
			for j := range 8 {
				a0, a1, a2 := float64(3*r+1), float64(3*r+2), float64(3*r+3)
				if got, want := c[r*ldc+j], 100+a0+a1*float64(j)-a2; got != want {
					t.Errorf("c[%d][%d] = %v, want %v", r, j, got, want)
				}
			}
			if r < 3 && c[r*ldc+8] != 100 {
				t.Errorf("c[%d][8], outside the tile, changed to %v", r, c[r*ldc+8])
			}
		}
	})
	t.Run("Transpose4Rows", func(t *testing.T) {
		// Four rows of 11 entries, 12 apart, entry (r, p) = 100r + p,
		// into rows of w = 6: columns 0–3 take them, 4–5 keep −1.
		const n, stride, w = 11, 12, 6
		x := make([]float32, 4*stride)
		for r := range 4 {
			for p := range n {
				x[r*stride+p] = float32(100*r + p)
			}
		}
		dst := make([]float32, n*w)
		for e := range dst {
			dst[e] = -1
		}
		Transpose4Rows(dst, w, x, stride, n)
		for p := range n {
			for c := range w {
				want := float32(-1)
				if c < 4 {
					want = float32(100*c + p)
				}
				if got := dst[p*w+c]; got != want {
					t.Errorf("dst[%d·%d+%d] = %v, want %v", p, w, c, got, want)
				}
			}
		}
		defer func() {
			if recover() == nil {
				t.Error("rows of 3 floats did not panic")
			}
		}()
		Transpose4Rows(dst, 3, x, stride, n)
	})
	nan, negZero, inf := float32(math.NaN()), float32(math.Copysign(0, -1)), float32(math.Inf(1))
	t.Run("BiasReLU", func(t *testing.T) {
		row := []float32{1, -1, nan, negZero, inf, -inf, 2, 0.5, -3, 4}
		b := []float32{1, 0.5, 0, 0, 0, 0, -3, 0, 3, negZero}
		BiasReLU(row, b)
		want := []float32{2, 0, nan, 0, inf, 0, 0, 0.5, 0, 4}
		for j := range row {
			if math.Float32bits(row[j]) != math.Float32bits(want[j]) && !(row[j] != row[j] && want[j] != want[j]) {
				t.Errorf("row[%d] = %v (%#x), want %v", j, row[j], math.Float32bits(row[j]), want[j])
			}
		}
	})
	t.Run("MaskReLU", func(t *testing.T) {
		act := []float32{0, 1, negZero, nan, 0, 2, 0, 0, 3, 0}
		g := []float32{5, 6, 7, 8, 9, 10, 11, 12, 13, 14}
		MaskReLU(g, act)
		// Only +0 (a clamped ReLU) blocks the gradient; −0 and NaN do not.
		if want := []float32{0, 6, 7, 8, 0, 10, 0, 0, 13, 0}; !slices.Equal(g, want) {
			t.Errorf("g = %v, want %v", g, want)
		}
	})
	t.Run("SumRows", func(t *testing.T) {
		const rows, stride, cols = 3, 12, 10
		x := make([]float32, rows*stride)
		for i := range rows {
			for j := range stride {
				x[i*stride+j] = float32(10*i + j)
			}
		}
		out := make([]float32, cols)
		out[0] = 1
		SumRows(out, x, rows, stride)
		for j, v := range out {
			// Σ_i (10i + j) = 30 + 3j, plus out's 1 in column 0.
			want := float32(30 + 3*j)
			if j == 0 {
				want++
			}
			if v != want {
				t.Errorf("out[%d] = %v, want %v", j, v, want)
			}
		}
	})
}
