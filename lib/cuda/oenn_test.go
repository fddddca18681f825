//go:build cuda

package cuda_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/cuda"
)

func randomFloats(rng *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for e := range v {
		v[e] = float32(rng.NormFloat64())
	}
	return v
}

// TestGemmParity compares sgemm with a float64 triple loop for all four
// transpose combinations, at sizes that leave partial tiles on every edge,
// with strides wider than the rows and operands at offsets into their
// buffers, overwriting and accumulating.
func TestGemmParity(t *testing.T) {
	c := open(t)
	rng := rand.New(rand.NewPCG(11, 11))
	sizes := [][3]int{{1, 1, 1}, {67, 45, 33}, {130, 70, 17}, {5, 129, 200}, {64, 64, 16}, {3, 2, 0}}
	for _, sz := range sizes {
		for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
			for _, acc := range []bool{false, true} {
				m, n, k := sz[0], sz[1], sz[2]
				name := fmt.Sprintf("%dx%dx%d/transA=%v/transB=%v/acc=%v", m, n, k, tr[0], tr[1], acc)
				// stored shape of each operand, with 3 spare columns and an offset of 5
				operand := func(rows, cols int, trans bool) (cuda.Mat, []float32, func(i, j int) float64) {
					if trans {
						rows, cols = cols, rows
					}
					stride, off := cols+3, 5
					data := randomFloats(rng, off+rows*stride)
					at := func(i, j int) float64 {
						if trans {
							i, j = j, i
						}
						return float64(data[off+i*stride+j])
					}
					return cuda.Mat{Buf: upload(t, c, data), Off: off, Stride: stride, Trans: trans}, data, at
				}
				a, _, atA := operand(m, k, tr[0])
				b, _, atB := operand(k, n, tr[1])
				out, c0, atC := operand(m, n, false)
				if err := c.Gemm(m, n, k, a, b, out, acc); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got := download(t, out.Buf)
				for i := 0; i < m; i++ {
					for j := 0; j < n; j++ {
						want, bound := 0.0, 0.0
						if acc {
							want, bound = atC(i, j), math.Abs(atC(i, j))
						}
						for p := 0; p < k; p++ {
							want += atA(i, p) * atB(p, j)
							bound += math.Abs(atA(i, p) * atB(p, j))
						}
						have := float64(got[out.Off+i*out.Stride+j])
						if math.Abs(have-want) > 1e-6*float64(k+1)*bound {
							t.Fatalf("%s: C[%d][%d] = %v, want %v", name, i, j, have, want)
						}
					}
				}
				// The spare columns and the offset's prefix are untouched.
				for e, v := range got {
					inside := e >= out.Off && (e-out.Off)%out.Stride < n && (e-out.Off)/out.Stride < m
					if !inside && math.Float32bits(v) != math.Float32bits(c0[e]) {
						t.Fatalf("%s: element %d outside C changed from %v to %v", name, e, c0[e], v)
					}
				}
			}
		}
	}
}

// TestOENNElementwiseParity checks the bias/ReLU, ReLU-mask, column-sum
// and code kernels against straightforward Go twins of lib/oenn's
// code, bit for bit (column sums of tall matrices: to rounding).
func TestOENNElementwiseParity(t *testing.T) {
	c := open(t)
	rng := rand.New(rand.NewPCG(12, 12))
	nan, negZero := float32(math.NaN()), float32(math.Copysign(0, -1))

	t.Run("bias and ReLU", func(t *testing.T) {
		const rows, cols = 37, 19
		x := randomFloats(rng, rows*cols+4) // 4 spare entries past the matrix
		x[3], x[4] = nan, negZero
		bias := randomFloats(rng, 2+cols)
		bias[2+4] = 0 // x[4] + bias = −0 + 0
		for _, relu := range []bool{false, true} {
			dx := upload(t, c, x)
			if err := c.BiasReLU(dx, rows, cols, upload(t, c, bias), 2, relu); err != nil {
				t.Fatal(err)
			}
			got := download(t, dx)
			for e, v := range x {
				want := v
				if e < rows*cols {
					want = v + bias[2+e%cols]
					if relu {
						want = max(want, 0) // Go's max, as lib/oenn's addBias
					}
				}
				// The device writes its one canonical NaN whatever the
				// input's payload: NaN must stay NaN, its bits need not.
				if math.Float32bits(got[e]) != math.Float32bits(want) && !(math.IsNaN(float64(got[e])) && math.IsNaN(float64(want))) {
					t.Fatalf("relu=%v: x[%d] = %v, want %v", relu, e, got[e], want)
				}
			}
		}
	})

	t.Run("ReLU mask", func(t *testing.T) {
		act := []float32{0, 1, negZero, nan, 0, 2.5, 0}
		grad := []float32{1, 2, 3, 4, 5, 6, 7}
		dg := upload(t, c, grad)
		if err := c.MaskReLU(dg, upload(t, c, act), 6); err != nil {
			t.Fatal(err)
		}
		// Only +0 masks; the 7th entry is beyond size.
		want := []float32{0, 2, 3, 4, 0, 6, 7}
		if got := download(t, dg); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("masked gradient %v, want %v", got, want)
		}
	})

	t.Run("column sums", func(t *testing.T) {
		for _, rows := range []int{0, 1, 200, 256, 257, 1000} {
			const cols, off = 70, 3
			x := randomFloats(rng, rows*cols)
			sums, err := cuda.Alloc[float32](c, off+cols+2)
			if err != nil {
				t.Fatal(err)
			}
			var scratch *cuda.Buffer[float32]
			if need := cuda.ColumnSumsScratch(rows, cols); need > 0 {
				if scratch, err = cuda.Alloc[float32](c, need); err != nil {
					t.Fatal(err)
				}
			}
			dx, err := cuda.Alloc[float32](c, max(1, rows*cols))
			if err != nil {
				t.Fatal(err)
			}
			if err := dx.CopyFromAt(0, x); err != nil {
				t.Fatal(err)
			}
			if err := sums.CopyFrom(randomFloats(rng, off+cols+2)); err != nil { // stale values to overwrite
				t.Fatal(err)
			}
			before := download(t, sums)
			if err := c.ColumnSums(dx, rows, cols, scratch, sums, off); err != nil {
				t.Fatal(err)
			}
			got := download(t, sums)
			for col := 0; col < cols; col++ {
				var want float32 // lib/oenn's columnSums: row order from 0
				bound := 0.0
				for r := 0; r < rows; r++ {
					want += x[r*cols+col]
					bound += math.Abs(float64(x[r*cols+col]))
				}
				have := got[off+col]
				if rows <= 256 && math.Float32bits(have) != math.Float32bits(want) {
					t.Fatalf("rows=%d: sum of column %d = %v, want %v bit for bit", rows, col, have, want)
				}
				if math.Abs(float64(have-want)) > 1e-5*bound {
					t.Fatalf("rows=%d: sum of column %d = %v, want %v", rows, col, have, want)
				}
			}
			for _, e := range []int{0, 1, 2, off + cols, off + cols + 1} {
				if got[e] != before[e] {
					t.Fatalf("rows=%d: sums[%d] outside the range changed", rows, e)
				}
			}
		}
	})

	t.Run("codes", func(t *testing.T) {
		const length = 11
		items := []int32{0, 5, 2047, 1024, 77, 5}
		x := make([]float32, len(items)*length)
		dx := upload(t, c, x)
		di := upload(t, c, items)
		if err := c.OENNCodes(di, len(items), length, nil, dx); err != nil {
			t.Fatal(err)
		}
		got := download(t, dx)
		for r, q := range items {
			for b := 0; b < length; b++ {
				if want := float32((int(q) >> (length - 1 - b)) & 1); got[r*length+b] != want {
					t.Fatalf("binary code of %d, bit %d: %v, want %v", q, b, got[r*length+b], want)
				}
			}
		}
		// A length beyond 63 bits: the high bits are zero, as Go's shifts give.
		const long = 70
		dl := upload(t, c, make([]float32, 2*long))
		if err := c.OENNCodes(di, 2, long, nil, dl); err != nil {
			t.Fatal(err)
		}
		for e, v := range download(t, dl)[long:] { // item 5
			if want := float32((int(5) >> (long - 1 - e)) & 1); v != want {
				t.Fatalf("long code of 5, bit %d: %v, want %v", e, v, want)
			}
		}
		table := randomFloats(rng, 2048*length)
		if err := c.OENNCodes(di, len(items), length, upload(t, c, table), dx); err != nil {
			t.Fatal(err)
		}
		got = download(t, dx)
		for r, q := range items {
			for b := 0; b < length; b++ {
				if got[r*length+b] != table[int(q)*length+b] {
					t.Fatalf("random code of %d, entry %d: %v, want %v", q, b, got[r*length+b], table[int(q)*length+b])
				}
			}
		}
	})
}

// TestOENNHingeParity compares the hinge kernel with lib/oenn's hinge,
// spelled out in Go: loss and gradient to rounding (atomicAdd's order).
func TestOENNHingeParity(t *testing.T) {
	c := open(t)
	rng := rand.New(rand.NewPCG(13, 13))
	const rows, d, m = 90, 7, 3000
	const scale = float32(1) / m
	y := randomFloats(rng, rows*d)
	tri := make([]int32, 3*m)
	for e := range tri {
		tri[e] = int32(rng.IntN(rows))
	}
	want := make([]float32, rows*d)
	var wantLoss float64
	active := 0
	two := 2 * scale
	for q := 0; q < m; q++ {
		i, j, k := int(tri[3*q])*d, int(tri[3*q+1])*d, int(tri[3*q+2])*d
		var dij, dik float32
		for col := 0; col < d; col++ {
			a, b := y[i+col]-y[j+col], y[i+col]-y[k+col]
			dij += a * a
			dik += b * b
		}
		l := dij - dik + 1
		if l <= 0 {
			continue
		}
		active++
		wantLoss += float64(l)
		for col := 0; col < d; col++ {
			a, b := y[i+col]-y[j+col], y[i+col]-y[k+col]
			want[i+col] += two * (a - b)
			want[j+col] -= two * a
			want[k+col] += two * b
		}
	}
	if active == 0 || active == m {
		t.Fatalf("%d of %d triplets active: the test needs both kinds", active, m)
	}
	// Room for 10 more rows than used, which must stay zero.
	dy, err := cuda.Alloc[float32](c, (rows+10)*d)
	if err != nil {
		t.Fatal(err)
	}
	dyy, err := cuda.Alloc[float32](c, (rows+10)*d)
	if err != nil {
		t.Fatal(err)
	}
	if err := dyy.CopyFromAt(0, y); err != nil {
		t.Fatal(err)
	}
	loss, err := c.OENNHinge(dyy, rows, d, upload(t, c, tri), m, scale, dy)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(loss-wantLoss) > 1e-9*wantLoss {
		t.Errorf("loss: GPU %v, CPU %v", loss, wantLoss)
	}
	got := download(t, dy)
	gscale := 0.0
	for _, v := range want {
		gscale = max(gscale, math.Abs(float64(v)))
	}
	for e, v := range got {
		w := float32(0)
		if e < len(want) {
			w = want[e]
		}
		if math.Abs(float64(v-w)) > 1e-5*gscale {
			t.Fatalf("dy[%d]: GPU %v, CPU %v", e, v, w)
		}
	}
}

func TestOENNArgumentChecks(t *testing.T) {
	c := open(t)
	f := upload(t, c, make([]float32, 12))
	i := upload(t, c, make([]int32, 3))
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"GEMM A too small", c.Gemm(3, 4, 5, cuda.Mat{Buf: f, Stride: 5}, cuda.Mat{Buf: f, Stride: 4}, cuda.Mat{Buf: f, Stride: 4}, false), "operand A"},
		{"GEMM stride", c.Gemm(2, 2, 2, cuda.Mat{Buf: f, Stride: 1}, cuda.Mat{Buf: f, Stride: 2}, cuda.Mat{Buf: f, Stride: 2}, false), "stride 1"},
		{"GEMM transposed output", c.Gemm(1, 1, 1, cuda.Mat{Buf: f, Stride: 1}, cuda.Mat{Buf: f, Stride: 1}, cuda.Mat{Buf: f, Stride: 1, Trans: true}, false), "transposed"},
		{"GEMM no buffer", c.Gemm(1, 1, 1, cuda.Mat{Stride: 1}, cuda.Mat{Buf: f, Stride: 1}, cuda.Mat{Buf: f, Stride: 1}, false), "no buffer"},
		{"bias offset", c.BiasReLU(f, 2, 6, f, 7, true), "bias has 12 elements, need 13"},
		{"mask size", c.MaskReLU(f, f, 13), "need 13"},
		{"column-sum scratch", c.ColumnSums(upload(t, c, make([]float32, 600)), 300, 2, nil, f, 0), "scratch"},
		{"hinge rows", errOf(c.OENNHinge(f, 2, 6, i, 2, 1, f)), "triplet rows has 3 elements, need 6"},
		{"codes table", c.OENNCodes(i, 3, 5, f, upload(t, c, make([]float32, 15))), "rows of 5"},
		{"copy past the end", f.CopyFromAt(10, make([]float32, 3)), "offset 10"},
	}
	for _, tc := range tests {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error = %v, want it to contain %q", tc.name, tc.err, tc.want)
		}
	}
}
