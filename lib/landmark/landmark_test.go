package landmark

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/internal/testpoints"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/internal/parallel"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

// budgeted is a landmark method: it can state its query budget.
type budgeted interface {
	embed.Algorithm
	Budget(n, d int) (int64, error)
}

// Both methods must recover the paper's Uniform set (n = 1000, d = 2) far
// better than a random embedding, within their stated query budgets: LOE
// asks exactly its budget, LLOE at most its bound.
func TestRecoversUniform(t *testing.T) {
	const n, d = 1000, 2
	x := testpoints.Uniform(n, d, 1)
	test, err := triplets.Random(x, 10_000, triplets.Noise{}, 77, 1)
	if err != nil {
		t.Fatal(err)
	}
	random, err := metrics.Procrustes(x, testpoints.Uniform(n, d, 2))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		alg           budgeted
		exactBudget   bool
		maxProcrustes float64
		maxTestError  float64
	}{
		// Measured: LOE 0.25 disparity, 0.23 test error; LLOE 0.002, 0.02
		// (paper's test errors, n = 10⁴: 0.19 and 0.07).
		{&LOE{}, true, 0.35, 0.32},
		{&LLOE{}, false, 0.02, 0.05},
	} {
		t.Run(tc.alg.Name(), func(t *testing.T) {
			o, err := triplets.NewOracle(x, triplets.Noise{}, 1)
			if err != nil {
				t.Fatal(err)
			}
			res, err := tc.alg.Fit(context.Background(), embed.Problem{Dim: d, Oracle: o}, embed.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if r, c := res.Embedding.Dims(); r != n || c != d {
				t.Fatalf("embedding is %d×%d, want %d×%d", r, c, n, d)
			}
			proc, err := metrics.Procrustes(x, res.Embedding)
			if err != nil {
				t.Fatal(err)
			}
			terr := metrics.TripletError(res.Embedding, test)
			t.Logf("Procrustes %.3f (random %.3f), test triplet error %.3f, %d queries", proc, random, terr, res.Queries)
			if proc > tc.maxProcrustes || proc > random/2 {
				t.Errorf("Procrustes disparity %.3f, want ≤ %.3f and well below random's %.3f", proc, tc.maxProcrustes, random)
			}
			if terr > tc.maxTestError {
				t.Errorf("test triplet error %.3f, want ≤ %.3f", terr, tc.maxTestError)
			}
			budget, err := tc.alg.Budget(n, d)
			if err != nil {
				t.Fatal(err)
			}
			if res.Queries != o.Queries() {
				t.Errorf("reported %d queries, oracle answered %d", res.Queries, o.Queries())
			}
			if tc.exactBudget && res.Queries != budget || res.Queries > budget || res.Queries == 0 {
				t.Errorf("made %d queries, budget %d (exact: %v)", res.Queries, budget, tc.exactBudget)
			}
		})
	}
}

// The budget formulas of the doc comments, on hand-computed cases.
func TestBudget(t *testing.T) {
	for _, tc := range []struct {
		name string
		alg  budgeted
		n, d int
		want int64
	}{
		// ℓ = 5, c = ⌈4/5⌉ = 1, p = ⌊1000·log₂1000⌋ = 9965.
		{"loe d=2", &LOE{}, 1000, 2, 5 * 9965},
		// ℓ = 33, c = ⌈60/33⌉ = 2, p = ⌊2·1797·log₂1797⌋ = 38856.
		{"loe d=30", &LOE{}, 1797, 30, 33 * 38856},
		// ℓ = 10, c = ⌈4/10⌉ = 1.
		{"loe 10 landmarks", &LOE{Landmarks: 10}, 1000, 2, 10 * 9965},
		// Sizes [500]: ⌊2·500·2·log₂500⌋ = 17931; then 500·6·⌈log₂500⌉ = 27000.
		{"lloe n=1000", &LLOE{}, 1000, 2, 17931 + 27000},
		// Sizes [1000, 2000]: 39863 + 87726; phase 2 max(9000·6·10, 8000·6·11) = 540000.
		{"lloe n=10000", &LLOE{}, 10000, 2, 39863 + 87726 + 540000},
	} {
		got, err := tc.alg.Budget(tc.n, tc.d)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != tc.want {
			t.Errorf("%s: budget %d, want %d", tc.name, got, tc.want)
		}
	}
}

// Same seed, same result; LOE's result does not depend on the thread count
// either, even under noise (every goroutine asks through its own session).
// LLOE's first phase is SOE, deterministic for a fixed thread count.
func TestDeterministic(t *testing.T) {
	x := testpoints.Uniform(300, 2, 3)
	fit := func(alg embed.Algorithm, threads int) *mat.Dense {
		t.Helper()
		o, err := triplets.NewOracle(x, triplets.Noise{Model: triplets.Bernoulli, Level: 0.1}, 5)
		if err != nil {
			t.Fatal(err)
		}
		res, err := alg.Fit(context.Background(), embed.Problem{Dim: 2, Oracle: o},
			embed.Options{Seed: 9, Threads: threads, MaxEpochs: 100})
		if err != nil {
			t.Fatal(err)
		}
		return res.Embedding
	}
	for _, tc := range []struct {
		alg                embed.Algorithm
		threadsA, threadsB int
	}{
		{&LOE{}, 1, 3},
		{&LLOE{}, 2, 2},
	} {
		a, b := fit(tc.alg, tc.threadsA), fit(tc.alg, tc.threadsB)
		if !mat.Equal(a, b) {
			t.Errorf("%s: embeddings differ between runs with %d and %d threads", tc.alg.Name(), tc.threadsA, tc.threadsB)
		}
	}
}

// Phase two alone, against a perfectly embedded subset, must put items close
// to where they belong, whatever the thread count.
func TestInsertAgainstTruth(t *testing.T) {
	const n, m, d = 400, 150, 2
	x := testpoints.Uniform(n, d, 11)
	o, err := triplets.NewOracle(x, triplets.Noise{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	sub := make([]int, m)
	emb := make([]float64, m*d)
	for s := range sub {
		sub[s] = s
		copy(emb[s*d:], x.RawRowView(s))
	}
	var placed [2][]float64
	for run, threads := range []int{1, 2} {
		in := newInserter(sub, emb, d, DefaultLLOEPhase2LR, DefaultLLOEPhase2Iterations, 0, threads)
		out := make([]float64, (n-m)*d)
		errs := make([]error, n-m)
		parallel.ForWith(threads, n-m, in.newWork, func(w *insertWork, r int) {
			item := m + r
			errs[r] = in.place(o.Session(uint64(item)), rand.New(rand.NewPCG(1, uint64(item))), item, out[r*d:(r+1)*d], w)
		})
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		placed[run] = out
	}
	var sum float64
	for r := 0; r < n-m; r++ {
		dx := placed[0][r*d] - x.At(m+r, 0)
		dy := placed[0][r*d+1] - x.At(m+r, 1)
		sum += dx*dx + dy*dy
	}
	// Points are spread over [0,10)²; the mean nearest-member distance is
	// about 0.4, so an insertion error of that order is as good as the
	// subset allows.
	if rms := sum / float64(n-m); rms > 0.5*0.5 {
		t.Errorf("mean squared insertion error %.3f, want ≤ 0.25", rms)
	}
	for e := range placed[0] {
		if placed[0][e] != placed[1][e] {
			t.Fatalf("insertion differs between 1 and 2 threads at value %d", e)
		}
	}
	// At most ⌈log₂ m⌉ queries per anchor.
	if bound := int64(n-m) * 6 * 8 * 2; o.Queries() > bound {
		t.Errorf("%d queries for two insertion runs, bound %d", o.Queries(), bound)
	}
}

func TestBadInput(t *testing.T) {
	x := testpoints.Uniform(20, 2, 1)
	o, err := triplets.NewOracle(x, triplets.Noise{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		alg  embed.Algorithm
		p    embed.Problem
		opt  embed.Options
		want string
	}{
		{"no oracle", &LOE{}, embed.Problem{Dim: 2}, embed.Options{}, "oracle"},
		{"no dimension", &LLOE{}, embed.Problem{Oracle: o}, embed.Options{}, "dimension"},
		{"n mismatch", &LOE{}, embed.Problem{N: 30, Dim: 2, Oracle: o}, embed.Options{}, "n=30"},
		{"too few landmarks", &LOE{Landmarks: 2}, embed.Problem{Dim: 2, Oracle: o}, embed.Options{}, "landmarks=2"},
		{"more landmarks than items", &LOE{Landmarks: 21}, embed.Problem{Dim: 2, Oracle: o}, embed.Options{}, "exceeds"},
		{"negative multiplier", &LOE{Multiplier: -1}, embed.Problem{Dim: 2, Oracle: o}, embed.Options{}, "multiplier"},
		{"bad learning rate", &LOE{}, embed.Problem{Dim: 2, Oracle: o}, embed.Options{LearningRate: -1}, "learning rate"},
		{"subset too small", &LLOE{LandmarkFraction: 0.01}, embed.Problem{Dim: 2, Oracle: o}, embed.Options{}, "too small"},
		{"bad target loss", &LLOE{TargetLoss: -1}, embed.Problem{Dim: 2, Oracle: o}, embed.Options{}, "target loss"},
	} {
		_, err := tc.alg.Fit(context.Background(), tc.p, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
}

func TestRegistry(t *testing.T) {
	for _, tc := range []struct {
		name    string
		params  embed.Params
		wantErr string
	}{
		{"loe", nil, ""},
		{"loe", embed.Params{"landmarks": 7, "multiplier": 1}, ""},
		{"loe", embed.Params{"landmarks": 2.5}, "whole number"},
		{"loe", embed.Params{"multiplier": -2}, "multiplier"},
		{"lloe", nil, ""},
		{"lloe", embed.Params{"phase2_lr": 0.1, "max_subset": 500}, ""},
		{"lloe", embed.Params{"phase2_lr": -0.1}, "phase-2 learning rate"},
		{"lloe", embed.Params{"landmarks": 3}, "no parameter"},
	} {
		info, err := embed.Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if !info.Active || info.Version < 1 {
			t.Errorf("%s: registered as Active=%v Version=%d", tc.name, info.Active, info.Version)
		}
		alg, err := embed.New(tc.name, tc.params)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s %v: %v", tc.name, tc.params, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s %v: got error %v, want one mentioning %q", tc.name, tc.params, err, tc.wantErr)
		case err == nil && alg.Name() != tc.name:
			t.Errorf("%s: built an algorithm named %q", tc.name, alg.Name())
		}
	}
}
