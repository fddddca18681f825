package tripletloss

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/internal/testpoints"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

func mustTriplets(t testing.TB, x *mat.Dense, m int, seed uint64) *triplets.Set {
	t.Helper()
	s, err := triplets.Random(x, m, triplets.Noise{}, seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestFitRejectsBadInput(t *testing.T) {
	truth := testpoints.Uniform(20, 2, 1)
	good := mustTriplets(t, truth, 200, 1)
	outOfRange := &triplets.Set{N: 5, Idx: []int32{0, 1, 7}}
	tests := []struct {
		name string
		alg  embed.Algorithm
		p    embed.Problem
		opt  embed.Options
		want string
	}{
		{"zero dimension", &SOE{}, embed.Problem{Dim: 0, Train: good}, embed.Options{}, "dimension"},
		{"negative dimension", &STE{}, embed.Problem{Dim: -2, Train: good}, embed.Options{}, "dimension"},
		{"nil triplets", &SOE{}, embed.Problem{Dim: 2}, embed.Options{}, "empty"},
		{"empty triplets", &TSTE{}, embed.Problem{Dim: 2, Train: &triplets.Set{N: 20}}, embed.Options{}, "empty"},
		{"n below largest index", &SOE{}, embed.Problem{Dim: 2, Train: outOfRange}, embed.Options{}, "out of range"},
		{"n below the set's items", &SOE{}, embed.Problem{N: 10, Dim: 2, Train: good}, embed.Options{}, "smaller"},
		{"NaN learning rate", &SOE{}, embed.Problem{Dim: 2, Train: good}, embed.Options{LearningRate: math.NaN()}, "learning rate"},
		{"Inf learning rate", &CKLX{}, embed.Problem{Dim: 2, Train: good}, embed.Options{LearningRate: math.Inf(1)}, "learning rate"},
		{"negative learning rate", &SOE{}, embed.Problem{Dim: 2, Train: good}, embed.Options{LearningRate: -1}, "learning rate"},
		{"negative epochs", &SOE{}, embed.Problem{Dim: 2, Train: good}, embed.Options{MaxEpochs: -1}, "MaxEpochs"},
		{"negative batch", &SOE{}, embed.Problem{Dim: 2, Train: good}, embed.Options{BatchSize: -5}, "batch"},
		{"negative threads", &SOE{}, embed.Problem{Dim: 2, Train: good}, embed.Options{Threads: -1}, "thread"},
		{"negative margin", &SOE{Margin: -1}, embed.Problem{Dim: 2, Train: good}, embed.Options{}, "margin"},
		{"NaN alpha", &TSTE{Alpha: math.NaN()}, embed.Problem{Dim: 2, Train: good}, embed.Options{}, "alpha"},
		{"negative mu", &CKLX{Mu: -0.1}, embed.Problem{Dim: 2, Train: good}, embed.Options{}, "mu"},
		{"negative lambda", &GNMDSX{Lambda: -1}, embed.Problem{Dim: 2, Train: good}, embed.Options{}, "lambda"},
		{"unknown optimizer", &SOE{}, embed.Problem{Dim: 2, Train: good}, embed.Options{Optimizer: "sgd"}, "want adam or lbfgs"},
		{"L-BFGS with a learning rate", &STE{}, embed.Problem{Dim: 2, Train: good}, embed.Options{Optimizer: embed.OptimizerLBFGS, LearningRate: 0.1}, "no learning rate"},
		{"L-BFGS with a batch size", &SOE{}, embed.Problem{Dim: 2, Train: good}, embed.Options{Optimizer: embed.OptimizerLBFGS, BatchSize: 50}, "full batch"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tc.alg.Fit(context.Background(), tc.p, tc.opt)
			if err == nil || res != nil {
				t.Fatalf("accepted: result %v, error %v", res, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

// A learning rate so large that float32 overflows must end in an error that
// names the epoch, never in a NaN embedding.
func TestFitReportsDivergence(t *testing.T) {
	truth := testpoints.Uniform(30, 2, 2)
	train := mustTriplets(t, truth, 500, 2)
	res, err := (&SOE{}).Fit(context.Background(), embed.Problem{Dim: 2, Train: train},
		embed.Options{LearningRate: 1e38, MaxEpochs: 50, Seed: 1})
	if !errors.Is(err, embed.ErrDiverged) || res != nil {
		t.Fatalf("got result %v, error %v; want ErrDiverged", res, err)
	}
	if !strings.Contains(err.Error(), "epoch ") {
		t.Fatalf("error %q does not name the epoch", err)
	}
}

func TestFitDeterministic(t *testing.T) {
	truth := testpoints.Uniform(100, 3, 3)
	train := mustTriplets(t, truth, 5000, 3)
	for _, alg := range []embed.Algorithm{&SOE{}, &STE{}, &TSTE{}, &CKLX{}, &GNMDSX{Lambda: 0.01}} {
		t.Run(alg.Name(), func(t *testing.T) {
			fit := func(seed uint64) *embed.Result {
				res, err := alg.Fit(context.Background(), embed.Problem{Dim: 3, Train: train},
					embed.Options{Seed: seed, MaxEpochs: 20, Threads: 2, BatchSize: 1500})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			a, b, c := fit(5), fit(5), fit(6)
			if !mat.Equal(a.Embedding, b.Embedding) {
				t.Fatal("same seed and thread count, different embeddings")
			}
			if mat.Equal(a.Embedding, c.Embedding) {
				t.Fatal("different seeds gave the same embedding")
			}
			for e := range a.Trace {
				if a.Trace[e].Loss != b.Trace[e].Loss {
					t.Fatalf("epoch %d: losses %v and %v", e+1, a.Trace[e].Loss, b.Trace[e].Loss)
				}
			}
		})
	}
}

func TestFitTraceAndProgress(t *testing.T) {
	truth := testpoints.Uniform(60, 2, 4)
	train := mustTriplets(t, truth, 3000, 4)
	var seen []int
	res, err := (&SOE{}).Fit(context.Background(), embed.Problem{Dim: 2, Train: train}, embed.Options{
		Seed: 1, MaxEpochs: 30,
		Stop:     embed.StopRule{Every: 10, SubsetSize: 1000, Threshold: 0.005, Disabled: true},
		Progress: func(e embed.Epoch) { seen = append(seen, e.Epoch) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Epochs != 30 || len(res.Trace) != 30 || len(seen) != 30 || res.StopReason != embed.StopMaxEpochs {
		t.Fatalf("epochs %d, trace %d, progress calls %d, stop %q", res.Epochs, len(res.Trace), len(seen), res.StopReason)
	}
	for e, ep := range res.Trace {
		checked := (e+1)%10 == 0
		if checked == math.IsNaN(ep.TrainError) {
			t.Errorf("epoch %d: train error %v (check epoch: %v)", ep.Epoch, ep.TrainError, checked)
		}
	}
	if first, last := res.Trace[0].Loss, res.Trace[29].Loss; !(last < first) {
		t.Errorf("loss did not fall: %v → %v", first, last)
	}
	if r, c := res.Embedding.Dims(); r != 60 || c != 2 {
		t.Errorf("embedding is %d×%d", r, c)
	}
}

func TestFitHonoursCancellation(t *testing.T) {
	truth := testpoints.Uniform(60, 2, 5)
	train := mustTriplets(t, truth, 3000, 5)
	ctx, cancel := context.WithCancel(context.Background())
	res, err := (&SOE{}).Fit(ctx, embed.Problem{Dim: 2, Train: train}, embed.Options{
		MaxEpochs: 1000, BatchSize: 100,
		Progress: func(e embed.Epoch) {
			if e.Epoch == 3 {
				cancel()
			}
		},
	})
	if !errors.Is(err, context.Canceled) || res == nil || res.StopReason != embed.StopCanceled || res.Epochs != 3 {
		t.Fatalf("result %+v, error %v", res, err)
	}
}

func TestRegistry(t *testing.T) {
	tests := []struct {
		name   string
		params embed.Params
		want   embed.Algorithm
		bad    bool
	}{
		{"soe", nil, &SOE{Margin: 1}, false},
		{"SOE", embed.Params{"margin": 2}, &SOE{Margin: 2}, false},
		{"ste", nil, &STE{}, false},
		{"tste", embed.Params{"alpha": 4}, &TSTE{Alpha: 4}, false},
		{"tste", nil, &TSTE{}, false},
		{"cklx", embed.Params{"mu": 0.5}, &CKLX{Mu: 0.5}, false},
		{"cklx", embed.Params{"init": 1}, &CKLX{Mu: DefaultMu, StartFromSOE: true}, false},
		{"cklx", embed.Params{"init": 2}, nil, true},
		{"cklx", nil, &CKLX{Mu: DefaultMu}, false},
		{"gnmdsx", nil, &GNMDSX{}, false},
		{"gnmdsx", embed.Params{"lambda": 0.5}, &GNMDSX{Lambda: 0.5}, false},
		{"gnmdsx", embed.Params{"lambda": -1}, nil, true},
		// Zero means the default, in the registry as in the structs.
		{"soe", embed.Params{"margin": 0}, &SOE{}, false},
		{"cklx", embed.Params{"mu": 0}, &CKLX{}, false},
		{"soe", embed.Params{"margin": -1}, nil, true},
		{"cklx", embed.Params{"mu": math.NaN()}, nil, true},
		{"tste", embed.Params{"alpha": -1}, nil, true},
		{"ste", embed.Params{"mu": 1}, nil, true},
	}
	for _, tc := range tests {
		alg, err := embed.New(tc.name, tc.params)
		if tc.bad {
			if err == nil {
				t.Errorf("New(%q, %v) accepted", tc.name, tc.params)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(alg, tc.want) {
			t.Errorf("New(%q, %v) = %v, %v; want %v", tc.name, tc.params, alg, err, tc.want)
		}
	}
	for _, name := range []string{"soe", "ste", "tste", "cklx"} {
		info, err := embed.Lookup(name)
		if err != nil || info.Version < 1 || info.Active {
			t.Errorf("Lookup(%q) = %+v, %v", name, info, err)
		}
	}
}

// L-BFGS: one iteration an epoch (trace, progress, stopping rule, cap),
// the same embedding bit for bit whatever the thread count, and the loss
// falling from iteration to iteration.
func TestFitLBFGS(t *testing.T) {
	truth := testpoints.Uniform(80, 2, 6)
	train := mustTriplets(t, truth, 4000, 6)
	test := mustTriplets(t, truth, 2000, 7)
	for _, alg := range []embed.Algorithm{&SOE{}, &STE{}, &TSTE{}, &CKLX{}, &GNMDSX{Lambda: 0.001}} {
		t.Run(alg.Name(), func(t *testing.T) {
			fit := func(threads int, stop embed.StopRule) *embed.Result {
				var seen int
				res, err := alg.Fit(context.Background(), embed.Problem{Dim: 2, Train: train}, embed.Options{
					Seed: 3, MaxEpochs: 40, Threads: threads, Optimizer: embed.OptimizerLBFGS, Stop: stop,
					Progress: func(e embed.Epoch) { seen++ }})
				if err != nil {
					t.Fatal(err)
				}
				if seen != res.Epochs || len(res.Trace) != res.Epochs {
					t.Fatalf("%d progress calls, %d trace entries for %d epochs", seen, len(res.Trace), res.Epochs)
				}
				return res
			}
			every := embed.StopRule{Every: 10, SubsetSize: 1000, Threshold: 0.005, Disabled: true}
			one := fit(1, every)
			for e := 1; e < len(one.Trace); e++ {
				if one.Trace[e].Loss > one.Trace[e-1].Loss*(1+1e-6) {
					t.Errorf("epoch %d: loss rose from %v to %v", e+1, one.Trace[e-1].Loss, one.Trace[e].Loss)
				}
				if checked := (e+1)%10 == 0; checked == math.IsNaN(one.Trace[e].TrainError) {
					t.Errorf("epoch %d: train error %v (check epoch: %v)", e+1, one.Trace[e].TrainError, checked)
				}
			}
			if one.Epochs > 40 || (one.Epochs < 40 && one.StopReason != embed.StopConverged) {
				t.Errorf("%d epochs, stop %s: want 40 or fewer by convergence", one.Epochs, one.StopReason)
			}
			if e := metrics.TripletError(one.Embedding, test); e > 0.1 {
				t.Errorf("test error %.4f after %d L-BFGS iterations", e, one.Epochs)
			}
			if e := firstDifference(one.Embedding.RawMatrix().Data, fit(3, every).Embedding.RawMatrix().Data); e >= 0 {
				t.Errorf("1 and 3 threads differ at entry %d", e)
			}
			if r := fit(2, embed.StopRule{}); r.Epochs > one.Epochs && r.StopReason != embed.StopConverged {
				t.Errorf("with the stopping rule: %d epochs, %s", r.Epochs, r.StopReason)
			}
		})
	}
}

// L-BFGS stops on cancellation with the embedding so far, as Adam does.
func TestFitLBFGSHonoursCancellation(t *testing.T) {
	truth := testpoints.Uniform(60, 2, 5)
	train := mustTriplets(t, truth, 3000, 5)
	ctx, cancel := context.WithCancel(context.Background())
	res, err := (&SOE{}).Fit(ctx, embed.Problem{Dim: 2, Train: train}, embed.Options{
		MaxEpochs: 1000, Optimizer: embed.OptimizerLBFGS,
		Stop: embed.StopRule{Every: 1, SubsetSize: 100, Threshold: 0.005, Disabled: true},
		Progress: func(e embed.Epoch) {
			if e.Epoch == 3 {
				cancel()
			}
		},
	})
	if !errors.Is(err, context.Canceled) || res == nil || res.StopReason != embed.StopCanceled || res.Epochs != 3 {
		t.Fatalf("result %+v, error %v", res, err)
	}
}

// CKL-x with StartFromSOE starts from SOE's embedding of the same triplets
// moved and scaled onto the random start's centroid and spread: its start
// is a similarity transform of SOE's fit, and on noisy 2-D data, where
// the random start folds (0.37 test error here), its fit ends near SOE's
// (0.16 against 0.13).
func TestCKLXStartFromSOE(t *testing.T) {
	truth := testpoints.Uniform(300, 2, 7)
	train, err := triplets.Random(truth, triplets.Count(1, 300, 2), triplets.Noise{Model: triplets.Bernoulli, Level: 0.1}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	test := mustTriplets(t, truth, 10000, 99)
	p := embed.Problem{Dim: 2, Train: train}
	opt := embed.Options{Seed: 3, Threads: 2}

	soe, err := (&SOE{}).Fit(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	r, err := (&CKLX{StartFromSOE: true}).resolve(2)
	if err != nil {
		t.Fatal(err)
	}
	random := initialEmbedding(300, 2, r.initScale, opt.Seed)
	start, err := r.startingEmbedding(context.Background(), p, opt, random)
	if err != nil {
		t.Fatal(err)
	}
	wantC, wantS := centroidSpread(random, 2)
	gotC, gotS := centroidSpread(start, 2)
	if math.Abs(gotS-wantS) > 1e-5*wantS || math.Abs(gotC[0]-wantC[0]) > 1e-5 || math.Abs(gotC[1]-wantC[1]) > 1e-5 {
		t.Errorf("start: centroid %v, spread %v; want %v, %v", gotC, gotS, wantC, wantS)
	}
	// Distances scale by one factor: the start is SOE's layout.
	dist := func(x func(i, j int) float64, a, b int) float64 {
		return math.Hypot(x(a, 0)-x(b, 0), x(a, 1)-x(b, 1))
	}
	fromSOE := func(i, j int) float64 { return soe.Embedding.At(i, j) }
	fromStart := func(i, j int) float64 { return float64(start[2*i+j]) }
	ratio := dist(fromStart, 0, 1) / dist(fromSOE, 0, 1)
	for _, pair := range [][2]int{{2, 3}, {10, 200}, {299, 5}} {
		if r := dist(fromStart, pair[0], pair[1]) / dist(fromSOE, pair[0], pair[1]); math.Abs(r-ratio) > 1e-4*ratio {
			t.Errorf("pair %v: distance ratio %v, want %v (a similarity of SOE's embedding)", pair, r, ratio)
		}
	}

	warm, err := (&CKLX{StartFromSOE: true}).Fit(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	cold, err := (&CKLX{}).Fit(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	soeErr, warmErr, coldErr := metrics.TripletError(soe.Embedding, test), metrics.TripletError(warm.Embedding, test), metrics.TripletError(cold.Embedding, test)
	if warmErr > soeErr+0.05 || warmErr > coldErr-0.1 {
		t.Errorf("test error: SOE %.3f, CKL-x from SOE %.3f, from random %.3f: want CKL-x from SOE within 0.05 of SOE and 0.1 below from random", soeErr, warmErr, coldErr)
	}
}
