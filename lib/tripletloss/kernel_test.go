package tripletloss

import (
	"math"
	"math/rand/v2"
	"testing"
)

// smallProblem returns a random embedding and random triplets for gradient
// checks.
func smallProblem(n, d, m int, seed uint64) ([]float32, []int32) {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := make([]float32, n*d)
	for e := range x {
		x[e] = float32(2 * rng.Float64())
	}
	return x, syntheticTriplets(n, m, seed)
}

// totalLoss is the summed loss over idx computed in float64 from scratch,
// independently of the kernel.
func totalLoss(l lossFunc, x []float64, d int, idx []int32) float64 {
	var s float64
	for t := 0; t < len(idx); t += 3 {
		i, j, k := int(idx[t]), int(idx[t+1]), int(idx[t+2])
		var dij, dik float64
		for c := 0; c < d; c++ {
			u, v := x[i*d+c]-x[j*d+c], x[i*d+c]-x[k*d+c]
			dij += u * u
			dik += v * v
		}
		s += lossAt(l, dij, dik)
	}
	return s
}

// The kernel's gradient for every method against central differences of the
// float64 loss.
func TestKernelGradientMatchesFiniteDifferences(t *testing.T) {
	const n, d, m = 7, 5, 40
	for _, tc := range allLosses {
		t.Run(tc.name, func(t *testing.T) {
			x32, idx := smallProblem(n, d, m, 3)
			k, err := newKernel(tc.loss, x32, n, d, 1, 1)
			if err != nil {
				t.Fatal(err)
			}
			g := make([]float32, n*k.stride)
			got := k.accumulate(idx, g)

			x := make([]float64, n*d)
			for e, v := range x32 {
				x[e] = float64(v)
			}
			if want := totalLoss(tc.loss, x, d, idx); !close(got, want, 1e-5) {
				t.Errorf("loss %v, float64 reference %v", got, want)
			}
			const h = 1e-6
			for e := range x {
				orig := x[e]
				x[e] = orig + h
				up := totalLoss(tc.loss, x, d, idx)
				x[e] = orig - h
				down := totalLoss(tc.loss, x, d, idx)
				x[e] = orig
				fd := (up - down) / (2 * h)
				i, c := e/d, e%d
				if ge := g[i*k.stride+c]; !close(float64(ge), fd, 2e-3) {
					t.Errorf("∂L/∂x[%d,%d] = %v, finite difference %v", i, c, ge, fd)
				}
			}
			for i := 0; i < n; i++ {
				for c := d; c < k.stride; c++ {
					if g[i*k.stride+c] != 0 {
						t.Fatalf("padding entry (%d, %d) has gradient %v", i, c, g[i*k.stride+c])
					}
				}
			}
		})
	}
}

// Per-thread buffers with a fixed reduction order: the same thread count
// gives the same bits however the goroutines are scheduled, and a different
// thread count gives the same result up to rounding.
func TestKernelStepDeterministic(t *testing.T) {
	const n, d, m = 50, 7, 3000
	run := func(threads int) []float64 {
		x, idx := smallProblem(n, d, m, 11)
		k, err := newKernel(lossFunc{kindSOE, 1}, x, n, d, threads, 1)
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			if _, err := k.step(idx); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < n; i++ {
			for c := d; c < k.stride; c++ {
				if v := k.x[i*k.stride+c]; v != 0 {
					t.Fatalf("padding entry (%d, %d) moved to %v", i, c, v)
				}
			}
		}
		return k.embedding()
	}
	a, b := run(3), run(3)
	for e := range a {
		if a[e] != b[e] {
			t.Fatalf("3 threads, two runs differ at %d: %v vs %v", e, a[e], b[e])
		}
	}
	one := run(1)
	for e := range a {
		if math.Abs(float64(a[e]-one[e])) > 1e-4 {
			t.Fatalf("3 threads vs 1 thread differ at %d: %v vs %v", e, a[e], one[e])
		}
	}
}

func TestTripletErrorCountsViolations(t *testing.T) {
	// Items on a line at 0, 1, 3: (0,1,2) holds, (0,2,1) is violated,
	// (1,0,2) holds; the tie (1,0,2) with x2 = 2 counts as satisfied.
	tests := []struct {
		name string
		x    []float32
		idx  []int32
		want float64
	}{
		{"one of three violated", []float32{0, 1, 3}, []int32{0, 1, 2, 0, 2, 1, 1, 0, 2}, 1.0 / 3},
		{"tie is satisfied", []float32{0, 1, 2}, []int32{1, 0, 2, 1, 2, 0}, 0},
	}
	for _, tc := range tests {
		k, err := newKernel(lossFunc{kindSOE, 1}, tc.x, len(tc.x), 1, 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := k.tripletError(tc.idx); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: error %v, want %v", tc.name, got, tc.want)
		}
	}
}
