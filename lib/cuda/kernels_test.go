//go:build cuda

package cuda_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/cuda"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/optim"
	"github.com/oe-lab/oe/lib/triplets"
)

// open returns a context on device 0, or skips the test where there is none.
func open(t *testing.T) *cuda.Context {
	t.Helper()
	c, err := cuda.Open(0)
	if err != nil {
		t.Skip("no CUDA device: " + err.Error())
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	})
	return c
}

func upload[T cuda.Elem](t *testing.T, c *cuda.Context, v []T) *cuda.Buffer[T] {
	t.Helper()
	b, err := cuda.Upload(c, v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func download[T cuda.Elem](t *testing.T, b *cuda.Buffer[T]) []T {
	t.Helper()
	v := make([]T, b.Len())
	if err := b.CopyTo(v); err != nil {
		t.Fatal(err)
	}
	return v
}

// intPoints returns n points of dim small integer coordinates in float64:
// their squared distances are exact in float32 and float64 alike, and often
// tie, so that comparisons must agree exactly.
func intPoints(n, dim int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, n*dim)
	for e := range x {
		x[e] = float64(rng.IntN(5))
	}
	return x
}

func toFloat32(x []float64) []float32 {
	out := make([]float32, len(x))
	for e, v := range x {
		out[e] = float32(v)
	}
	return out
}

func TestBufferRoundTripAndChecks(t *testing.T) {
	c := open(t)
	b := upload(t, c, []int32{1, -2, 3})
	if got := download(t, b); !slices.Equal(got, []int32{1, -2, 3}) {
		t.Errorf("round trip gave %v", got)
	}
	if err := b.Zero(); err != nil {
		t.Fatal(err)
	}
	if got := download(t, b); !slices.Equal(got, []int32{0, 0, 0}) {
		t.Errorf("after Zero: %v", got)
	}
	z, err := cuda.Alloc[float64](c, 4)
	if err != nil {
		t.Fatal(err)
	}
	if got := download(t, z); !slices.Equal(got, make([]float64, 4)) {
		t.Errorf("Alloc is not zeroed: %v", got)
	}
	x := upload(t, c, make([]float32, 6))
	z32 := upload(t, c, make([]float32, 4))
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"short copy in", b.CopyFrom([]int32{1}), "copying 1 elements into a buffer of 3"},
		{"short copy out", b.CopyTo(make([]int32, 4)), "into 4"},
		{"embedding shape", errOf(c.TripletGrad(x, 2, 4, b, 0, 1, cuda.Loss{}, x)), "want 2×4"},
		{"triplet range", errOf(c.TripletGrad(x, 2, 3, b, 0, 2, cuda.Loss{}, x)), "out of range"},
		{"loss kind", errOf(c.TripletGrad(x, 2, 3, b, 0, 1, cuda.Loss{Kind: 9}, x)), "unknown loss kind"},
		{"ridge gradient length", errOf(c.Ridge(x, 1, z32)), "gradient of 4"},
		{"noise level", c.GenerateTriplets(z, 4, 1, 1, cuda.Bernoulli, 2, b), "noise level"},
		{"gather bounds", c.GatherTriplets(b, upload(t, c, []int32{5}), []int32{5}, b), "subset entry 0"},
	}
	for _, tc := range tests {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error = %v, want it to contain %q", tc.name, tc.err, tc.want)
		}
	}
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
	if err := b.Free(); err != nil {
		t.Errorf("second Free: %v", err)
	}
}

func errOf[T any](_ T, err error) error { return err }

// TestRidgeParity: the gradient is lib/tripletloss's kernel.gather's
// g + float32(2λ·x) to the bit, and ‖x‖² its float64 sum up to order.
func TestRidgeParity(t *testing.T) {
	c := open(t)
	const size, lambda = 5000, 0.37
	rng := rand.New(rand.NewPCG(8, 8))
	x, g := make([]float32, size), make([]float32, size)
	for e := range x {
		x[e], g[e] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
	}
	dx, dg := upload(t, c, x), upload(t, c, g)
	sq, err := c.Ridge(dx, lambda, dg)
	if err != nil {
		t.Fatal(err)
	}
	var want float64
	two := float32(2 * lambda)
	for e := range g {
		g[e] += float32(two * x[e])
		want += float64(x[e]) * float64(x[e])
	}
	if math.Abs(sq-want) > 1e-12*want {
		t.Errorf("‖x‖²: GPU %v, CPU %v", sq, want)
	}
	got := download(t, dg)
	for e := range got {
		if math.Float32bits(got[e]) != math.Float32bits(g[e]) {
			t.Fatalf("gradient %d: GPU %v, CPU %v", e, got[e], g[e])
		}
	}
}

// TestAdamParity: the kernel is lib/optim's update to the bit.
func TestAdamParity(t *testing.T) {
	c := open(t)
	for _, amsgrad := range []bool{true, false} {
		const size = 1000
		rng := rand.New(rand.NewPCG(7, 7))
		x := make([]float32, size)
		for e := range x {
			x[e] = float32(rng.NormFloat64())
		}
		cpu, err := optim.NewAdam[float32](size, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		cpu.AMSGrad = amsgrad
		sched, err := optim.NewAdam[float32](0, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		sched.AMSGrad = amsgrad
		dx := upload(t, c, x)
		bufs := make([]*cuda.Buffer[float32], 3)
		for b := range bufs {
			if bufs[b], err = cuda.Alloc[float32](c, size); err != nil {
				t.Fatal(err)
			}
		}
		want := slices.Clone(x)
		for step := 0; step < 3; step++ {
			g := make([]float32, size)
			for e := range g {
				g[e] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3)))
			}
			if err := cpu.Step(want, g); err != nil {
				t.Fatal(err)
			}
			if err := sched.NextStep(); err != nil {
				t.Fatal(err)
			}
			if err := c.AdamStep(dx, upload(t, c, g), bufs[0], bufs[1], bufs[2], cuda.Adam(sched.Constants())); err != nil {
				t.Fatal(err)
			}
		}
		got := download(t, dx)
		for e := range got {
			if math.Float32bits(got[e]) != math.Float32bits(want[e]) {
				t.Fatalf("amsgrad=%v: parameter %d: GPU %v, lib/optim %v", amsgrad, e, got[e], want[e])
			}
		}
	}
}

func TestViolationsParity(t *testing.T) {
	c := open(t)
	const n, d, m = 60, 3, 5000
	x := intPoints(n, d, 3)
	s, err := triplets.Random(mat.NewDense(n, d, intPoints(n, d, 4)), m, triplets.Noise{}, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	dx, idx := upload(t, c, toFloat32(x)), upload(t, c, s.Idx)
	emb := mat.NewDense(n, d, x)
	// Integer points make ties: the data must hold some, or the test could
	// not tell the tie rule from the strict count.
	strict := 0
	for q := 0; q < m; q++ {
		i, j, k := s.At(q)
		if sq(emb, i, k) < sq(emb, i, j) {
			strict++
		}
	}
	if all := int(math.Round(metrics.TripletError(emb, s) * m)); strict == all {
		t.Fatalf("no ties among the %d triplets: %d strict violations, %d with ties", m, strict, all)
	}
	tests := []struct {
		name     string
		from, to int
		want     int64
	}{
		{"ties violated (lib/metrics)", 0, m, int64(math.Round(metrics.TripletError(emb, s) * m))},
		{"empty range", 7, 7, 0},
	}
	for _, tc := range tests {
		got, err := c.Violations(dx, n, d, idx, tc.from, tc.to)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: GPU %d violations, CPU %d", tc.name, got, tc.want)
		}
	}
}

func sq(x *mat.Dense, a, b int32) float64 {
	s := 0.0
	for c := 0; c < x.RawMatrix().Cols; c++ {
		u := x.At(int(a), c) - x.At(int(b), c)
		s += u * u
	}
	return s
}

func TestNonFinite(t *testing.T) {
	c := open(t)
	inf := float32(math.Inf(1))
	got, err := c.NonFinite(upload(t, c, []float32{1, float32(math.NaN()), inf, -inf, 0, -2}))
	if err != nil || got != 3 {
		t.Errorf("NonFinite = %d, %v; want 3", got, err)
	}
}

// TestGenerateTriplets: every triplet is valid and oriented by the data;
// the draw is deterministic per seed; indices are uniform; noise flips
// about the right share.
func TestGenerateTriplets(t *testing.T) {
	c := open(t)
	const n, dim, m = 50, 3, 200_000
	x := intPoints(n, dim, 9)
	emb := mat.NewDense(n, dim, x)
	dx := upload(t, c, x)
	draw := func(seed uint64, noise cuda.NoiseModel, level float64) *triplets.Set {
		out, err := cuda.Alloc[int32](c, 3*m)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.GenerateTriplets(dx, n, dim, seed, noise, level, out); err != nil {
			t.Fatal(err)
		}
		return &triplets.Set{N: n, Idx: download(t, out)}
	}
	s := draw(1, cuda.NoNoise, 0)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	counts := make([]int, n)
	for q := 0; q < m; q++ {
		i, j, k := s.At(q)
		if i == j || i == k || j == k {
			t.Fatalf("triplet %d = (%d, %d, %d) repeats an index", q, i, j, k)
		}
		if sq(emb, i, j) > sq(emb, i, k) {
			t.Fatalf("triplet %d = (%d, %d, %d) is not oriented by the data", q, i, j, k)
		}
		counts[i]++
	}
	// i is uniform: each count is m/n ± 5σ.
	mean := float64(m) / n
	sigma := math.Sqrt(mean * (1 - 1.0/n))
	for a, cnt := range counts {
		if math.Abs(float64(cnt)-mean) > 5*sigma {
			t.Errorf("item %d is i of %d triplets, expected %.0f ± %.0f", a, cnt, mean, 5*sigma)
		}
	}
	if again := draw(1, cuda.NoNoise, 0); !slices.Equal(again.Idx, s.Idx) {
		t.Error("same seed drew different triplets")
	}
	if other := draw(2, cuda.NoNoise, 0); slices.Equal(other.Idx, s.Idx) {
		t.Error("another seed drew the same triplets")
	}
	// Bernoulli noise flips a share p of the answers; ties read as correct
	// either way round, so the strictly wrong share is p·(1 − ties).
	ties := 0
	for q := 0; q < m; q++ {
		i, j, k := s.At(q)
		if sq(emb, i, j) == sq(emb, i, k) {
			ties++
		}
	}
	const p = 0.2
	noisy := draw(3, cuda.Bernoulli, p)
	wrong := 0
	for q := 0; q < m; q++ {
		i, j, k := noisy.At(q)
		if sq(emb, i, j) > sq(emb, i, k) {
			wrong++
		}
	}
	want := p * (1 - float64(ties)/m)
	if got := float64(wrong) / m; math.Abs(got-want) > 0.01 {
		t.Errorf("Bernoulli(%v): %.4f of the triplets are wrong, want %.4f", p, got, want)
	}
}

// TestAllocOutOfMemory asks for more memory than any device has: the error
// must be the driver's out-of-memory error with the size asked, and the
// context must stay usable.
func TestAllocOutOfMemory(t *testing.T) {
	c := open(t)
	const n = 1 << 42 // 16 TiB of float32
	b, err := cuda.Alloc[float32](c, n)
	if err == nil {
		_ = b.Free()
		t.Fatal("allocating 16 TiB succeeded")
	}
	var cerr *cuda.Error
	if !errors.As(err, &cerr) || cerr.Name != "CUDA_ERROR_OUT_OF_MEMORY" || !strings.Contains(err.Error(), "allocating 17592186044416 bytes (16384.00 GiB)") {
		t.Fatalf("error %v: want CUDA_ERROR_OUT_OF_MEMORY naming the 17592186044416 bytes asked", err)
	}
	small := upload(t, c, []float32{1, 2, 3})
	got := download(t, small)
	if got[2] != 3 {
		t.Fatalf("after the failed allocation a small buffer reads %v", got)
	}
}
