//go:build cuda

package tripletloss

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/internal/testpoints"

	"github.com/oe-lab/oe/lib/cuda"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

// needGPU skips the test where the cuda backend cannot run.
func needGPU(t *testing.T) *cuda.Context {
	t.Helper()
	c, err := gpuContext()
	if err != nil {
		t.Skip("no CUDA device: " + err.Error())
	}
	return c
}

var parityLosses = []struct {
	name  string
	loss  lossFunc
	ridge float64
}{
	{"soe", lossFunc{kindSOE, 1}, 0},
	{"ste", lossFunc{kind: kindSTE}, 0},
	{"tste", lossFunc{kindTSTE, 4}, 0},
	{"cklx", lossFunc{kindCKLX, 0.01}, 0},
	{"gnmdsx", lossFunc{kindGNMDSX, 1}, 0},
	{"gnmdsx λ 0.3", lossFunc{kindGNMDSX, 1}, 0.3},
}

// parityProblem is a small random problem: embedding, triplets.
func parityProblem(t *testing.T, n, d, m int) ([]float32, []int32) {
	t.Helper()
	x := initialEmbedding(n, d, 1, 5)
	return x, mustTriplets(t, testpoints.Uniform(n, 3, 6), m, 7).Idx
}

// TestGPUGradientParity compares the fused gradient kernel with the CPU
// kernel's accumulate: same loss, same gradient up to float32 summation
// order.
func TestGPUGradientParity(t *testing.T) {
	c := needGPU(t)
	const n, m = 40, 2000
	for _, d := range parityDims {
		x, idx := parityProblem(t, n, d, m)
		for _, tc := range parityLosses {
			t.Run(fmt.Sprintf("%s d=%d", tc.name, d), func(t *testing.T) {
				k, err := newKernel(tc.loss, x, n, d, 1, 1)
				if err != nil {
					t.Fatal(err)
				}
				k.ridge = tc.ridge
				wantLoss := k.lossGrad(idx)
				g := k.g

				dx, _ := cuda.Upload(c, x)
				di, _ := cuda.Upload(c, idx)
				dg, err := cuda.Alloc[float32](c, n*d)
				if err != nil || dx == nil || di == nil {
					t.Fatalf("allocating: %v", err)
				}
				defer func() { _, _, _ = dx.Free(), di.Free(), dg.Free() }()
				gotLoss, err := c.TripletGrad(dx, n, d, di, 0, m, cudaLoss(tc.loss), dg)
				if err != nil {
					t.Fatal(err)
				}
				if tc.ridge != 0 {
					sq, err := c.Ridge(dx, tc.ridge, dg)
					if err != nil {
						t.Fatal(err)
					}
					gotLoss += tc.ridge * sq
				}
				if math.Abs(gotLoss-wantLoss) > 1e-5*math.Abs(wantLoss) {
					t.Errorf("loss: GPU %v, CPU %v", gotLoss, wantLoss)
				}
				got := make([]float32, n*d)
				if err := dg.CopyTo(got); err != nil {
					t.Fatal(err)
				}
				scale := 0.0
				for _, v := range g {
					scale = max(scale, math.Abs(float64(v)))
				}
				if scale == 0 {
					t.Fatal("CPU gradient is zero: the test checks nothing")
				}
				for i := 0; i < n; i++ {
					for col := 0; col < d; col++ {
						want, have := float64(g[i*k.stride+col]), float64(got[i*d+col])
						if math.Abs(want-have) > 1e-4*scale {
							t.Fatalf("gradient[%d][%d]: GPU %v, CPU %v", i, col, have, want)
						}
					}
				}
			})
		}
	}
}

// parityDims are the embedding dimensions of the parity tests: tl_grad
// shares each triplet between groups of 1, 2, 8 and 32 lanes for them, in
// one or two passes over the columns.
var parityDims = []int{1, 2, 5, 32, 50}

// TestGPUStepAndErrorParity compares a full training step (gradient and
// Adam) and the triplet error of the two trainers.
func TestGPUStepAndErrorParity(t *testing.T) {
	needGPU(t)
	const n, m = 40, 2000
	sel := subsetPositions(m, 500, 3)
	for _, d := range parityDims {
		x, idx := parityProblem(t, n, d, m)
		for _, tc := range parityLosses {
			t.Run(fmt.Sprintf("%s d=%d", tc.name, d), func(t *testing.T) {
				cpu, err := newCPUTrainer(tc.loss, tc.ridge, x, n, d, 1, 0.01, idx, sel)
				if err != nil {
					t.Fatal(err)
				}
				gpu, err := newGPUTrainer(tc.loss, tc.ridge, x, n, d, 0.01, idx, sel)
				if err != nil {
					t.Fatal(err)
				}
				defer gpu.close()
				for _, tr := range []trainer{cpu, gpu} {
					for _, r := range [][2]int{{0, 1500}, {1500, m}} {
						if _, err := tr.step(r[0], r[1]); err != nil {
							t.Fatal(err)
						}
					}
				}
				want, _ := cpu.embedding()
				got, err := gpu.embedding()
				if err != nil {
					t.Fatal(err)
				}
				for e := range want {
					// Adam's first steps move by about lr·sign(g): only a
					// gradient within rounding of 0 could tell them apart.
					if math.Abs(got[e]-want[e]) > 1e-5 {
						t.Fatalf("entry %d after two steps: GPU %v, CPU %v", e, got[e], want[e])
					}
				}
				we, _ := cpu.subsetError()
				ge, err := gpu.subsetError()
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(we-ge) > 2.0/500 { // a near-tie may round either way
					t.Errorf("subset error: GPU %v, CPU %v", ge, we)
				}
				if ok, err := gpu.finite(); !ok || err != nil {
					t.Errorf("finite = %v, %v", ok, err)
				}
			})
		}
	}
}

// L-BFGS has no GPU path: asking for it on cuda is an error naming the
// CPU, before any device work.
func TestGPUWithLBFGSIsAnError(t *testing.T) {
	train := mustTriplets(t, testpoints.Uniform(30, 2, 1), 500, 2)
	opt := embed.Options{Seed: 1, Backend: embed.BackendCUDA, Optimizer: embed.OptimizerLBFGS}
	_, err := (&SOE{}).Fit(context.Background(), embed.Problem{Dim: 2, Train: train}, opt)
	if !errors.Is(err, embed.ErrNotSupported) || !strings.Contains(err.Error(), "CPU only") {
		t.Errorf("error %v, want one wrapping ErrNotSupported that says L-BFGS runs on the CPU only", err)
	}
}

// TestGPUFit fits with the cuda backend, from host triplets and from
// triplets drawn on the device, and expects an embedding as good as the
// CPU's.
func TestGPUFit(t *testing.T) {
	needGPU(t)
	truth := testpoints.Uniform(100, 2, 11)
	train := mustTriplets(t, truth, 20_000, 12)
	test := mustTriplets(t, truth, 5_000, 13)
	opt := embed.Options{Seed: 1, MaxEpochs: 300}
	cpu, err := (&SOE{}).Fit(context.Background(), embed.Problem{Dim: 2, Train: train}, opt)
	if err != nil {
		t.Fatal(err)
	}
	cpuErr := testError(cpu, test)
	opt.Backend = "cuda"
	gpu, err := (&SOE{}).Fit(context.Background(), embed.Problem{Dim: 2, Train: train}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if e := testError(gpu, test); e > cpuErr+0.02 {
		t.Errorf("test error: GPU %.4f, CPU %.4f", e, cpuErr)
	}
	res, rep, err := FitGPU(context.Background(), &SOE{}, embed.Problem{Dim: 2}, opt,
		GPURun{Data: truth, M: 20_000, TripletSeed: 14, Timing: true})
	if err != nil {
		t.Fatal(err)
	}
	if e := testError(res, test); e > cpuErr+0.02 {
		t.Errorf("test error with triplets drawn on the GPU: %.4f, CPU %.4f", e, cpuErr)
	}
	if rep.PeakAllocated <= 0 || rep.DeviceUsed < rep.PeakAllocated || len(rep.Kernels) == 0 || rep.Generate <= 0 {
		t.Errorf("incomplete report %+v", rep)
	}
}

func testError(res *embed.Result, test *triplets.Set) float64 {
	bad := 0
	x := res.Embedding
	for q := 0; q < test.Len(); q++ {
		i, j, k := test.At(q)
		dij, dik := 0.0, 0.0
		for c := 0; c < 2; c++ {
			u, v := x.At(int(i), c)-x.At(int(j), c), x.At(int(i), c)-x.At(int(k), c)
			dij += u * u
			dik += v * v
		}
		if !(dij < dik) {
			bad++
		}
	}
	return float64(bad) / float64(test.Len())
}

// TestGPUReportsDivergence: a float32 overflow on the device ends in the
// CPU path's error (embed.ErrDiverged, naming the epoch), never in a NaN
// embedding.
func TestGPUReportsDivergence(t *testing.T) {
	needGPU(t)
	truth := testpoints.Uniform(30, 2, 2)
	train := mustTriplets(t, truth, 500, 2)
	res, err := (&SOE{}).Fit(context.Background(), embed.Problem{Dim: 2, Train: train},
		embed.Options{LearningRate: 1e38, MaxEpochs: 50, Seed: 1, Backend: embed.BackendCUDA})
	if !errors.Is(err, embed.ErrDiverged) || res != nil {
		t.Fatalf("got result %v, error %v; want ErrDiverged", res, err)
	}
	if !strings.Contains(err.Error(), "epoch ") {
		t.Fatalf("error %q does not name the epoch", err)
	}
}

// TestGPUOutOfMemory asks the device for more triplets than it can hold:
// the error names the buffer and the size asked, and no result comes back.
func TestGPUOutOfMemory(t *testing.T) {
	needGPU(t)
	const m = 1 << 40 // 12 TiB of int32 indices
	res, _, err := FitGPU(context.Background(), &SOE{}, embed.Problem{Dim: 2}, embed.Options{Seed: 1},
		GPURun{Data: testpoints.Uniform(100, 2, 1), M: m, TripletSeed: 1})
	var cerr *cuda.Error
	if res != nil || !errors.As(err, &cerr) || cerr.Name != "CUDA_ERROR_OUT_OF_MEMORY" ||
		!strings.Contains(err.Error(), "the 1099511627776 training triplets to draw") ||
		!strings.Contains(err.Error(), "allocating 13194139533312 bytes") {
		t.Fatalf("got result %v, error %v; want an out-of-memory error naming the triplets and their bytes", res, err)
	}
}
