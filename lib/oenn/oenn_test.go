package oenn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/cuda"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

// uniform returns n points drawn uniformly from the unit cube [0, 1)^d.
func uniform(n, d int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, d, nil)
	raw := x.RawMatrix().Data
	for i := range raw {
		raw[i] = rng.Float64()
	}
	return x
}

// errorOf returns the fraction of triplets of s that emb violates.
func errorOf(emb *mat.Dense, s *triplets.Set) float64 {
	n, d := emb.Dims()
	y := make([]float32, n*d)
	for i, v := range emb.RawMatrix().Data {
		y[i] = float32(v)
	}
	return tripletError(y, d, s, nil)
}

// extensionTriplets draws m triplets (q, j, k) with q among the rows
// [old, n) of x and j, k among the rows [0, old), oriented by the true
// distances: the paper's out-of-sample setting.
func extensionTriplets(x *mat.Dense, old, m int, seed uint64) *triplets.Set {
	n, _ := x.Dims()
	rng := rand.New(rand.NewPCG(seed, 2))
	s := triplets.NewSet(n, m)
	raw := x.RawMatrix()
	for len(s.Idx) < 3*m {
		q, j, k := old+rng.IntN(n-old), rng.IntN(old), rng.IntN(old)
		if j == k {
			continue
		}
		if triplets.Closer(raw, q, j, k, triplets.Noise{}, nil) {
			s.Append(int32(q), int32(j), int32(k))
		} else {
			s.Append(int32(q), int32(k), int32(j))
		}
	}
	return s
}

// The uniform test problem of this package: n = 1000 points in [0, 1)²,
// λ = 2 (39,864 triplets, so every epoch is one full batch). The fit is shared by
// the tests that need a trained model.
const (
	uniN, uniD, uniNew = 1000, 2, 200
	uniEpochs          = 600
)

// uniformFit is the shared fit: the points (trained ones first, then the
// new ones of the extension test), the training triplets and the result.
type uniformFit struct {
	alg   *OENN
	res   *embed.Result
	x     *mat.Dense
	train *triplets.Set
}

var uniform2D = sync.OnceValues(func() (uniformFit, error) {
	x := uniform(uniN+uniNew, uniD, 1)
	train, err := triplets.Random(x.Slice(0, uniN, 0, uniD).(*mat.Dense), triplets.Count(2, uniN, uniD), triplets.Noise{}, 2, 0)
	if err != nil {
		return uniformFit{}, err
	}
	o := &OENN{}
	// The paper's rule would stop this run at epoch 500 with the error just
	// under 0.05; running a fixed number of epochs makes the check robust.
	res, err := o.Fit(context.Background(), embed.Problem{Dim: uniD, Train: train},
		embed.Options{Seed: 3, MaxEpochs: uniEpochs, Stop: embed.StopRule{Disabled: true}})
	return uniformFit{o, res, x, train}, err
})

func TestFitUniform(t *testing.T) {
	fit, err := uniform2D()
	if err != nil {
		t.Fatal(err)
	}
	o, res, train := fit.alg, fit.res, fit.train
	if r, c := res.Embedding.Dims(); r != uniN || c != uniD {
		t.Fatalf("embedding is %d×%d, want %d×%d", r, c, uniN, uniD)
	}
	if e := errorOf(res.Embedding, train); e > 0.05 {
		t.Errorf("train triplet error %.4f > 0.05", e)
	} else {
		t.Logf("train triplet error %.4f after %d epochs (%v)", e, res.Epochs, res.Elapsed)
	}
	if res.Epochs != uniEpochs || len(res.Trace) != uniEpochs || res.StopReason != embed.StopMaxEpochs {
		t.Errorf("epochs %d, trace %d, reason %q; want %d epochs to max-epochs", res.Epochs, len(res.Trace), res.StopReason, uniEpochs)
	}
	if first, last := res.Trace[0].Loss, res.Trace[len(res.Trace)-1].Loss; !(last < first/2) {
		t.Errorf("loss went from %v to %v; expected it to halve at least", first, last)
	}
	if m := o.Model(); m == nil || !mat.Equal(m.Embedding(), res.Embedding) {
		t.Error("Model().Embedding() differs from the result's embedding")
	}
}

func TestExtend(t *testing.T) {
	fit, err := uniform2D()
	if err != nil {
		t.Fatal(err)
	}
	o, x := fit.alg, fit.x
	ext := extensionTriplets(x, uniN, 40*uniNew, 4)
	res, err := o.Model().Extend(context.Background(), ext, embed.Options{Seed: 5, MaxEpochs: 300, Stop: embed.StopRule{Disabled: true}})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := res.Embedding.Dims(); r != uniN+uniNew {
		t.Fatalf("extension embedding has %d rows, want %d", r, uniN+uniNew)
	}
	// The trained items keep the frozen network's embedding.
	old := res.Embedding.Slice(0, uniN, 0, uniD)
	if !mat.Equal(old, o.Model().Embedding()) {
		t.Error("extension changed the embedding of the trained items")
	}
	trainErr := errorOf(res.Embedding, ext)
	heldOut := errorOf(res.Embedding, extensionTriplets(x, uniN, 10_000, 6))
	t.Logf("extension: error %.4f on its triplets, %.4f on fresh ones", trainErr, heldOut)
	if trainErr > 0.1 || heldOut > 0.15 {
		t.Errorf("extension error %.4f on its triplets (want ≤ 0.1), %.4f on fresh ones (want ≤ 0.15)", trainErr, heldOut)
	}
}

func TestExtendRejects(t *testing.T) {
	m := smallModel(t)
	n := m.Items()
	tests := []struct {
		name string
		set  *triplets.Set
	}{
		{"no new items", &triplets.Set{N: n, Idx: []int32{0, 1, 2}}},
		{"triplet without new item", &triplets.Set{N: n + 1, Idx: []int32{n32(n), 0, 1, 0, 1, 2}}},
		{"index out of range", &triplets.Set{N: n + 1, Idx: []int32{n32(n) + 1, 0, 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := m.Extend(context.Background(), tc.set, embed.Options{MaxEpochs: 1}); err == nil {
				t.Fatal("expected an error")
			}
		})
	}
	good := &triplets.Set{N: n + 1, Idx: []int32{n32(n), 0, 1}}
	for _, backend := range []embed.Backend{embed.BackendCUDA, "gpu", "tpu"} {
		_, err := m.Extend(context.Background(), good, embed.Options{MaxEpochs: 1, Backend: backend})
		if err == nil {
			t.Errorf("Extend on backend %q: expected an error", backend)
		}
	}
}

func n32(n int) int32 { return int32(n) }

// smallModel trains a tiny model for a few epochs: enough for tests of the
// model's plumbing.
func smallModel(t *testing.T) *Model {
	t.Helper()
	return smallModelCoded(t, Random)
}

// smallModelCoded is smallModel with the input encoding enc.
func smallModelCoded(t *testing.T, enc Encoding) *Model {
	t.Helper()
	x := uniform(40, 2, 9)
	train, err := triplets.Random(x, 500, triplets.Noise{}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	o := &OENN{Width: 16, Encoding: enc}
	if _, err := o.Fit(context.Background(), embed.Problem{Dim: 2, Train: train}, embed.Options{Seed: 1, MaxEpochs: 3}); err != nil {
		t.Fatal(err)
	}
	return o.Model()
}

func TestFitDeterministic(t *testing.T) {
	// 300 items: the batch's passes split into several blocks of rows
	// (mc), so that the threads share them.
	x := uniform(300, 3, 11)
	train, err := triplets.Random(x, 3000, triplets.Noise{}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	fit := func(seed uint64, threads int) *mat.Dense {
		res, err := (&OENN{}).Fit(context.Background(), embed.Problem{Dim: 3, Train: train},
			embed.Options{Seed: seed, MaxEpochs: 3, BatchSize: 1000, Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		return res.Embedding
	}
	a, b, c := fit(1, 4), fit(1, 4), fit(2, 4)
	if !mat.Equal(a, b) {
		t.Error("same seed gave different embeddings")
	}
	// The passes split their work over opt.Threads goroutines in fixed
	// blocks: one must give the same result.
	if serial := fit(1, 1); !mat.Equal(a, serial) {
		t.Error("1 thread gave a different embedding than 4")
	}
	if mat.Equal(a, c) {
		t.Error("different seeds gave the same embedding")
	}
}

func TestFitRejects(t *testing.T) {
	x := uniform(20, 2, 3)
	train, err := triplets.Random(x, 100, triplets.Noise{}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		alg  *OENN
		p    embed.Problem
		opt  embed.Options
	}{
		{"no triplets", &OENN{}, embed.Problem{Dim: 2}, embed.Options{}},
		{"zero dim", &OENN{}, embed.Problem{Train: train}, embed.Options{}},
		{"binary code too short", &OENN{InputLen: 2}, embed.Problem{Dim: 2, Train: train}, embed.Options{}},
		{"negative learning rate", &OENN{}, embed.Problem{Dim: 2, Train: train}, embed.Options{LearningRate: -1}},
		{"NaN learning rate", &OENN{}, embed.Problem{Dim: 2, Train: train}, embed.Options{LearningRate: math.NaN()}},
		{"negative width", &OENN{Width: -3}, embed.Problem{Dim: 2, Train: train}, embed.Options{}},
		{"unknown backend", &OENN{}, embed.Problem{Dim: 2, Train: train}, embed.Options{Backend: "tpu"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.alg.Fit(context.Background(), tc.p, tc.opt); err == nil {
				t.Fatal("expected an error")
			}
		})
	}
}

// TestBackendWithoutCUDA: where CUDA does not work (no cuda build, no
// device), Fit on cuda fails saying why, and auto runs on the CPU with the
// CPU's result. gpu_test.go covers the machines where it works.
func TestBackendWithoutCUDA(t *testing.T) {
	if cuda.Available() == nil {
		t.Skip("CUDA works here: see the GPU tests")
	}
	x := uniform(30, 2, 4)
	train, err := triplets.Random(x, 300, triplets.Noise{}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	fit := func(backend embed.Backend) (*embed.Result, error) {
		return (&OENN{}).Fit(context.Background(), embed.Problem{Dim: 2, Train: train},
			embed.Options{Seed: 1, MaxEpochs: 2, Backend: backend})
	}
	if _, err := fit(embed.BackendCUDA); err == nil || !strings.Contains(err.Error(), "cuda backend") {
		t.Errorf("Fit on cuda: err = %v, want the cuda backend's reason", err)
	}
	cpu, err := fit(embed.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	auto, err := fit(embed.BackendAuto)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(cpu.Embedding, auto.Embedding) {
		t.Error("auto without CUDA differs from cpu")
	}
	info, err := embed.Lookup("oenn")
	if err != nil || info.Backends[embed.BackendCUDA] == nil {
		t.Fatal("oenn does not list the cuda backend")
	}
	if err := info.Available(embed.BackendCUDA); err == nil {
		t.Error("Available(cuda) = nil where CUDA does not work")
	}
}

func TestFitDivergenceIsAnError(t *testing.T) {
	x := uniform(30, 2, 4)
	train, err := triplets.Random(x, 300, triplets.Noise{}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&OENN{}).Fit(context.Background(), embed.Problem{Dim: 2, Train: train},
		embed.Options{Seed: 1, MaxEpochs: 50, LearningRate: 1e38})
	if !errors.Is(err, embed.ErrDiverged) {
		t.Fatalf("err = %v, want ErrDiverged", err)
	}
}

func TestFitCanceled(t *testing.T) {
	x := uniform(30, 2, 4)
	train, err := triplets.Random(x, 300, triplets.Noise{}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	res, err := (&OENN{}).Fit(ctx, embed.Problem{Dim: 2, Train: train}, embed.Options{
		MaxEpochs: 100,
		Progress: func(e embed.Epoch) {
			if e.Epoch == 2 {
				cancel()
			}
		},
	})
	if !errors.Is(err, context.Canceled) || res == nil || res.StopReason != embed.StopCanceled || res.Epochs != 2 {
		t.Fatalf("err %v, result %+v; want the 2-epoch result with StopCanceled", err, res)
	}
}

func TestRegistry(t *testing.T) {
	tests := []struct {
		params  embed.Params
		want    OENN
		wantErr bool
	}{
		{nil, OENN{}, false},
		{embed.Params{"width": 64, "input": 1, "inputlen": 12}, OENN{Width: 64, Encoding: Random, InputLen: 12}, false},
		{embed.Params{"input": 2}, OENN{Encoding: BinaryIndex}, false},
		{embed.Params{"input": 3}, OENN{}, true},
		{embed.Params{"width": 10.5}, OENN{}, true},
		{embed.Params{"width": -1}, OENN{}, true},
		{embed.Params{"depth": 4}, OENN{}, true},
	}
	for _, tc := range tests {
		alg, err := embed.New("oenn", tc.params)
		if (err != nil) != tc.wantErr {
			t.Errorf("New(%v): err = %v, want error %v", tc.params, err, tc.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		got := alg.(*OENN)
		if got.Width != tc.want.Width || got.Encoding != tc.want.Encoding || got.InputLen != tc.want.InputLen {
			t.Errorf("New(%v) = %+v, want %+v", tc.params, got, tc.want)
		}
	}
}

// TestCodesHideTheItemsOrder: items that come sorted by place (here: four
// clusters, one after another) must not be placed by their order. From
// half as many triplets as items, binary codes of the index already recover
// the clusters (the network gives items sharing leading bits nearby
// outputs; 0.06 here, 0.07–0.68 over seeds 1–5), while the default codes,
// of a random permutation of the items, leave the embedding as uninformed
// as the triplets are (0.98–0.995).
func TestCodesHideTheItemsOrder(t *testing.T) {
	const n, d = 256, 2
	x := mat.NewDense(n, d, nil)
	rng := rand.New(rand.NewPCG(3, 1))
	for i := 0; i < n; i++ {
		cluster := i * 4 / n // items 0–63 in cluster 0, 64–127 in 1, ...
		x.Set(i, 0, float64(cluster%2)*10+rng.Float64())
		x.Set(i, 1, float64(cluster/2)*10+rng.Float64())
	}
	train, err := triplets.Random(x, n/2, triplets.Noise{}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	disparity := map[Encoding]float64{}
	for _, enc := range []Encoding{Binary, BinaryIndex} {
		res, err := (&OENN{Width: 32, Encoding: enc}).Fit(context.Background(), embed.Problem{Dim: d, Train: train},
			embed.Options{Seed: 1, MaxEpochs: 100})
		if err != nil {
			t.Fatal(err)
		}
		if disparity[enc], err = metrics.Procrustes(x, res.Embedding); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("disparity: binary index codes %.3f, binary codes %.3f", disparity[BinaryIndex], disparity[Binary])
	if disparity[BinaryIndex] > 0.5 || disparity[Binary] < 0.8 {
		t.Errorf("Procrustes disparity from %d triplets of %d items: binary index codes %.3f, binary codes %.3f; want ≤ 0.5 (the order leaks) and ≥ 0.8 (it does not)",
			train.Len(), n, disparity[BinaryIndex], disparity[Binary])
	}
}

func TestShape(t *testing.T) {
	tests := []struct {
		o               OENN
		n, d            int
		width, inputLen int
	}{
		{OENN{}, 1797, 30, 648, 11}, // the paper's rules: 2·30·log₂1797, ⌈log₂1797⌉
		{OENN{}, 64, 2, 120, 6},     // the width's floor
		{OENN{Width: 10, InputLen: 16}, 1024, 32, 10, 16},
	}
	for _, tc := range tests {
		if w, a := tc.o.Shape(tc.n, tc.d); w != tc.width || a != tc.inputLen {
			t.Errorf("%+v.Shape(%d, %d) = %d, %d; want %d, %d", tc.o, tc.n, tc.d, w, a, tc.width, tc.inputLen)
		}
	}
}
