package landmark

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/internal/numeric"
	"github.com/oe-lab/oe/lib/internal/parallel"
	"github.com/oe-lab/oe/lib/internal/param"
	"github.com/oe-lab/oe/lib/triplets"
)

// LOE defaults: the values of the paper's general experiments (learning rate
// from its hyper-parameter list, the rest from the authors' configuration).
const (
	DefaultLOEMultiplier   = 2.0
	DefaultLOELearningRate = 1e-4
	DefaultLOEIterations   = 500
)

// errNaN marks a BTL fit whose likelihood became NaN.
var errNaN = errors.New("NaN log-likelihood")

// Oracle noise streams: each goroutine of a method asks through its own
// Session, numbered from one of these bases, so that a noisy oracle gives the
// same answers whatever the thread count.
const (
	streamLOE          = 0       // + landmark ordinal
	streamLLOEPhase1   = 1 << 32 // + subset-size round
	streamLLOEPhase2   = 1 << 33 // + item index
	rngStreamLandmarks = 1 << 40 // the method's own randomness, apart from the oracle's
	// rngStreamFreshSubsets + round draws LLOE's subset of that round
	// (Replay FreshSubsets).
	rngStreamFreshSubsets = 1<<40 + 1<<32
)

// LOE is Landmark Ordinal Embedding (Ghosh, Chen & Yue 2019).
//
// Fit picks ℓ landmarks uniformly at random. For each landmark it asks p
// random queries "is the landmark closer to j than to k?" (j ≠ k uniform over
// all items) and estimates every item's distance score for that landmark
// with a BTL maximum-likelihood fit: gradient ascent at learning rate
// Options.LearningRate (default 1e-4) for Options.MaxEpochs steps (default
// 500). It then recovers the per-landmark shifts that turn scores into
// squared distances, completes the ℓ×ℓ landmark EDM and the n×ℓ
// landmark-to-item distances, and embeds with Landmark MDS. The landmarks
// are fitted in parallel on Options.Threads goroutines.
//
// Query budget: exactly ℓ·p queries, with ℓ = Landmarks (default d+3),
// c = ⌈λ·d/ℓ⌉ (λ = Multiplier, default 2) and p = ⌊c·n·log₂n⌋; that is about
// λ·n·d·log₂n, rounded up to whole multiples of ℓ·n·log₂n as in the authors'
// code (for d = 2: 5·n·log₂n; for d = 30: 66·n·log₂n). Budget computes it.
//
// Departures from the authors' code (evaluate-OE, landmark_oe.py), each
// where it contradicts the LOE paper or its own intent: landmarks are drawn
// at random, not items 0..ℓ−1 of the dataset's order; queries never compare
// an item with itself; the landmark matrix gets a zero diagonal before the
// shift is chosen (LOE's Figure 1) and the shift is the second largest
// eigenvalue, not the second largest in magnitude (see recoverShifts);
// Landmark MDS drops non-positive eigenvalues instead of using their
// absolute values; and an ascent step that lowers the likelihood is undone
// before stopping.
type LOE struct {
	// Landmarks is ℓ, the number of landmarks; 0 means d+3. It must be at
	// least d+1 (Landmark MDS) and 3; d+3 or more makes the shift recovery
	// exact for noise-free scores.
	Landmarks int
	// Multiplier is λ, which sizes the query budget like the λ·n·d·log₂n
	// triplets of the passive methods; 0 means 2.
	Multiplier float64
}

// LOE and LLOE implement embed.Algorithm with pointer receivers.
var (
	_ embed.Algorithm = (*LOE)(nil)
	_ embed.Algorithm = (*LLOE)(nil)
)

// Name returns "loe".
func (*LOE) Name() string { return "loe" }

// loePlan is the resolved query plan of a run.
type loePlan struct {
	landmarks int
	perLM     int // queries per landmark
}

// multiplier validates Multiplier and resolves its default: the part of
// the plan that does not depend on the problem, which the registry's
// factory checks too.
func (l *LOE) multiplier() (float64, error) {
	lambda := param.OrDefault(l.Multiplier, DefaultLOEMultiplier)
	if err := param.Positive("loe", "multiplier", lambda); err != nil {
		return 0, err
	}
	return lambda, nil
}

func (l *LOE) plan(n, d int) (loePlan, error) {
	k := l.Landmarks
	if k == 0 {
		k = d + 3
	}
	if k < 3 || k < d+1 {
		return loePlan{}, fmt.Errorf("loe: landmarks=%d is too few for dimension %d (need ≥ max(3, d+1))", k, d)
	}
	if k > n {
		return loePlan{}, fmt.Errorf("loe: landmarks=%d exceeds the %d items", k, n)
	}
	lambda, err := l.multiplier()
	if err != nil {
		return loePlan{}, err
	}
	c := math.Ceil(lambda * float64(d) / float64(k))
	per := int(c * float64(n) * math.Log2(float64(n)))
	if per < 1 {
		per = 1
	}
	return loePlan{landmarks: k, perLM: per}, nil
}

// Budget returns the number of oracle queries Fit makes for n items in d
// dimensions (see the type's doc).
func (l *LOE) Budget(n, d int) (int64, error) {
	pl, err := l.plan(n, d)
	if err != nil {
		return 0, err
	}
	return int64(pl.landmarks) * int64(pl.perLM), nil
}

// Fit embeds the oracle's items in p.Dim dimensions.
func (l *LOE) Fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	start := time.Now()
	n, d, err := checkActive("loe", p, opt)
	if err != nil {
		return nil, err
	}
	pl, err := l.plan(n, d)
	if err != nil {
		return nil, err
	}
	lr, err := opt.LR(DefaultLOELearningRate)
	if err != nil {
		return nil, fmt.Errorf("loe: %w", err)
	}
	iters := opt.MaxEpochs
	if iters <= 0 {
		iters = DefaultLOEIterations
	}
	k := pl.landmarks
	q0 := p.Oracle.Queries()

	rng := rand.New(rand.NewPCG(opt.Seed, rngStreamLandmarks))
	landmarks := rng.Perm(n)[:k]

	// scores[i*k+a] is item i's BTL score in landmark a's ranking.
	scores := make([]float64, n*k)
	steps := make([]int, k)
	errs := make([]error, k)
	parallel.ForWith(opt.Threads, k, func() *btlWork { return newBTLWork(n) }, func(w *btlWork, a int) {
		cmp := askLandmark(p.Oracle.Session(streamLOE+uint64(a)),
			rand.New(rand.NewPCG(opt.Seed, uint64(a))), landmarks[a], n, pl.perLM)
		steps[a], errs[a] = fitBTL(ctx, cmp, iters, lr, w.scores, w.grad, w.prev)
		for i, s := range w.scores {
			scores[i*k+a] = s
		}
	})
	maxSteps := 0
	for a, e := range errs {
		if errors.Is(e, errNaN) {
			return nil, embed.Diverged("loe", steps[a]+1)
		}
		if e != nil {
			return nil, fmt.Errorf("loe: %w", e)
		}
		maxSteps = max(maxSteps, steps[a])
	}

	w := mat.NewDense(k, k, nil)
	for a, lm := range landmarks {
		for b := 0; b < k; b++ {
			w.Set(a, b, scores[lm*k+b])
		}
	}
	e, shift, err := recoverShifts(w)
	if err != nil {
		return nil, fmt.Errorf("loe: %w", err)
	}
	lmds, err := newLandmarkMDS(e, d)
	if err != nil {
		return nil, fmt.Errorf("loe: %w", err)
	}
	lmIndex := make(map[int]int, k)
	for a, lm := range landmarks {
		lmIndex[lm] = a
	}
	emb := mat.NewDense(n, d, nil)
	f := make([]float64, k)
	for i := 0; i < n; i++ {
		if a, ok := lmIndex[i]; ok {
			for b := 0; b < k; b++ {
				f[b] = e.At(a, b)
			}
		} else {
			for b := 0; b < k; b++ {
				f[b] = scores[i*k+b] + shift[b]
			}
		}
		lmds.place(emb.RawRowView(i), f)
	}
	if !numeric.AllFinite(emb.RawMatrix().Data) {
		return nil, embed.Diverged("loe", maxSteps)
	}
	elapsed := time.Since(start)
	return &embed.Result{
		Embedding:      emb,
		Epochs:         maxSteps,
		StopReason:     embed.StopDone,
		Elapsed:        elapsed,
		TimeToConverge: elapsed,
		Queries:        p.Oracle.Queries() - q0,
	}, nil
}

// askLandmark asks count random queries about landmark lm: two distinct
// items j, k uniform over all n, answered by which is closer to lm.
func askLandmark(o *triplets.OracleSession, rng *rand.Rand, lm, n, count int) comparisons {
	cmp := comparisons{near: make([]int32, count), far: make([]int32, count)}
	for t := 0; t < count; t++ {
		j := rng.IntN(n)
		k := rng.IntN(n - 1)
		if k >= j {
			k++
		}
		if o.Closer(lm, j, k) {
			cmp.near[t], cmp.far[t] = int32(j), int32(k)
		} else {
			cmp.near[t], cmp.far[t] = int32(k), int32(j)
		}
	}
	return cmp
}

// btlWork holds one worker's n-long scratch slices.
type btlWork struct{ scores, grad, prev []float64 }

func newBTLWork(n int) *btlWork {
	return &btlWork{scores: make([]float64, n), grad: make([]float64, n), prev: make([]float64, n)}
}
