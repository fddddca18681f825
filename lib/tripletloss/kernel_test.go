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

// scatter names one of the kernel's two ways of adding up the gradient, by
// the laneBytes that makes newKernel choose it.
type scatter struct {
	name      string
	laneBytes int
}

// scatters lists both, for tests that run each.
var scatters = []scatter{{"lanes", 1 << 62}, {"row blocks", 0}}

// with runs f while newKernel chooses the scatter s.
func (s scatter) with(f func()) {
	defer func(b int) { laneBytes = b }(laneBytes)
	laneBytes = s.laneBytes
	f()
}

// The kernel's gradient for every method and both scatters against central
// differences of the float64 loss, with and without the ridge term.
func TestKernelGradientMatchesFiniteDifferences(t *testing.T) {
	const n, d, m = 7, 5, 40
	for _, sc := range scatters {
		for _, tc := range allLosses {
			t.Run(sc.name+"/"+tc.name, func(t *testing.T) {
				sc.with(func() { checkGradient(t, tc.loss, 0, n, d, m) })
			})
		}
		t.Run(sc.name+"/gnmdsx ridge 0.7", func(t *testing.T) {
			sc.with(func() { checkGradient(t, lossFunc{kindGNMDSX, 1}, 0.7, n, d, m) })
		})
	}
}

// checkGradient checks the loss and gradient a kernel for loss with the
// ridge term λ‖X‖² adds up on a random problem of m triplets over n items
// in d dimensions.
func checkGradient(t *testing.T, loss lossFunc, ridge float64, n, d, m int) {
	x32, idx := smallProblem(n, d, m, 3)
	k, err := newKernel(loss, x32, n, d, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	k.ridge = ridge
	got := k.lossGrad(idx)
	g := k.g
	x := make([]float64, n*d)
	for e, v := range x32 {
		x[e] = float64(v)
	}
	objective := func(x []float64) float64 {
		sq := 0.0
		for _, v := range x {
			sq += v * v
		}
		return totalLoss(loss, x, d, idx) + ridge*sq
	}
	if want := objective(x); !close(got, want, 1e-5) {
		t.Errorf("loss %v, float64 reference %v", got, want)
	}
	const h = 1e-6
	for e := range x {
		orig := x[e]
		x[e] = orig + h
		up := objective(x)
		x[e] = orig - h
		down := objective(x)
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
}

// TestKernelStepIndependentOfThreads runs steps with both scatters on
// batches of one span and of several (so that lanes, spans, chunks and row
// blocks all split the work) and checks that every thread count gives the
// same bits: see doc.go, "Determinism". The padding must stay zero. SOE and
// GNMDS-x with its ridge term (summed in gather) stand for the losses: the
// order of the sums does not depend on the loss.
func TestKernelStepIndependentOfThreads(t *testing.T) {
	objectives := []struct {
		name  string
		loss  lossFunc
		ridge float64
	}{{"soe", lossFunc{kindSOE, 1}, 0}, {"gnmdsx λ 0.01", lossFunc{kindGNMDSX, 1}, 0.01}}
	for _, sc := range scatters {
		for _, tc := range []struct {
			name    string
			n, d, m int
		}{
			{"one span, few rows", 50, 7, 3000},
			{"one span, many row blocks", 3000, 9, 40_000},
			{"three spans", 400, 3, 2*span + 5},
		} {
			for _, ob := range objectives {
				t.Run(sc.name+"/"+tc.name+"/"+ob.name, func(t *testing.T) {
					x0, idx := smallProblem(tc.n, tc.d, tc.m, 11)
					run := func(threads int) []float64 {
						var k *kernel
						sc.with(func() {
							var err error
							if k, err = newKernel(ob.loss, x0, tc.n, tc.d, threads, 1); err != nil {
								t.Fatal(err)
							}
							k.ridge = ob.ridge
						})
						for range 3 {
							if _, err := k.step(idx); err != nil {
								t.Fatal(err)
							}
						}
						for i := 0; i < tc.n; i++ {
							for c := tc.d; c < k.stride; c++ {
								if v := k.x[i*k.stride+c]; v != 0 {
									t.Fatalf("padding entry (%d, %d) moved to %v", i, c, v)
								}
							}
						}
						return k.embedding()
					}
					one := run(1)
					for _, threads := range []int{2, 3, 7} {
						if e := firstDifference(one, run(threads)); e >= 0 {
							t.Fatalf("%d threads differ from 1 thread at entry %d", threads, e)
						}
					}
				})
			}
		}
	}
}

// firstDifference returns the first index where a and b differ in their
// bits, or −1.
func firstDifference(a, b []float64) int {
	for e := range a {
		if math.Float64bits(a[e]) != math.Float64bits(b[e]) {
			return e
		}
	}
	return -1
}

func TestTripletErrorCountsViolations(t *testing.T) {
	// Items on a line at 0, 1, 3: (0,1,2) holds, (0,2,1) is violated,
	// (1,0,2) holds. With x2 = 2, (1,0,2) and (1,2,0) tie and count as
	// violated (triplets.Violated), as lib/metrics.TripletError counts them.
	tests := []struct {
		name string
		x    []float32
		idx  []int32
		want float64
	}{
		{"one of three violated", []float32{0, 1, 3}, []int32{0, 1, 2, 0, 2, 1, 1, 0, 2}, 1.0 / 3},
		{"ties are violated", []float32{0, 1, 2}, []int32{1, 0, 2, 1, 2, 0}, 1},
		{"collapsed embedding violates all", []float32{5, 5, 5}, []int32{0, 1, 2, 2, 0, 1}, 1},
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
