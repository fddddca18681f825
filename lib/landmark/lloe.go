package landmark

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/internal/numeric"
	"github.com/oe-lab/oe/lib/internal/parallel"
	"github.com/oe-lab/oe/lib/internal/param"
	"github.com/oe-lab/oe/lib/tripletloss"
	"github.com/oe-lab/oe/lib/triplets"
)

// LLOE defaults: the paper's learning rates and the authors' configuration of
// the general experiments.
const (
	DefaultLLOELandmarkFraction = 0.05
	DefaultLLOESubsetFactor     = 50
	DefaultLLOEMaxSubset        = 1000
	DefaultLLOETargetLoss       = 0.1
	DefaultLLOEMultiplier       = 2.0
	DefaultLLOEPhase1LR         = 1.0
	DefaultLLOEPhase1Epochs     = 500
	DefaultLLOEPhase2LR         = 0.5
	DefaultLLOEPhase2Iterations = 100
	// lloeBatchSize is the phase-one batch size before doubling, as in the
	// paper's other methods.
	lloeBatchSize = 1_000_000
)

// LLOE is Large-scale Landmark Ordinal Embedding (Anderton & Aslam 2019) in
// the form the paper evaluates.
//
// Phase 1 embeds a random subset of the items with SOE on random oracle
// triplets (the paper's change: the original filters landmark rankings). Its
// size follows the authors' doubling schedule: L = min(⌊LandmarkFraction·n⌋,
// 100) "landmarks", a first size s₀ = min(⌊n/2⌋, ⌈SubsetFactor·L⌉, MaxSubset),
// then doubling while the size is at most min(⌊n/2⌋, MaxSubset) and the
// double at most n/2. Each size s gets ⌊λ·s·d·log₂s⌋ triplets (λ =
// Multiplier) and an SOE run of Options.MaxEpochs epochs (default 500) at
// learning rate Options.LearningRate (default 1) times 2^i, i the number of
// sizes accepted so far, with the stopping rule off as in the authors'
// code. A size is accepted while SOE's final mean loss is below TargetLoss;
// the first size always is; the first later failure ends the doubling, and
// the last accepted subset (size m) is kept.
//
// Phase 2 inserts each remaining item independently, on Options.Threads
// goroutines: it picks a = min(2(d+1), m) anchors among the subset by
// farthest-first traversal of the embedding from a random member, finds by
// binary search (oracle: "is the anchor closer to the item than to member
// t?") where the item falls in each anchor's ranking of the members by
// embedded distance, which bounds its distance to the anchor between those of
// the two neighbouring members, and minimises the hinge-relaxed
// sphere-intersection objective Σ max(0, (‖y−a‖ − c)² − h²) over the shells
// (c, h: the shell's mid radius and half width) with AMSGrad Adam at
// Phase2LR for Phase2Iterations steps, starting from the member position that
// violates the shells least and returning the best point seen.
//
// Query budget: Σ_{s tried} ⌊λ·s·d·log₂s⌋ for phase 1 plus at most
// (n−m)·a·⌈log₂m⌉ for phase 2; Budget returns the bound over every size of
// the schedule.
//
// Departures from the authors' code (evaluate-OE, lsoe_mproc.py and
// lsoe_utils/oracle.py), each to follow Anderton & Aslam's description: the
// position in an anchor's ranking is found by binary search with counted
// oracle queries (the code read it off the ground truth, uncounted, and took
// the anchor itself as the inner neighbour, so every shell became a ball);
// the optimisation starts from the best member position instead of uniform
// [0,1)^d and keeps the best point seen; an item beyond all members of an
// anchor's ranking keeps a one-sided constraint instead of dropping the
// anchor; and the subsets of the doubling schedule are nested prefixes of
// one random order (the code drew each afresh around fixed landmarks, which
// with random triplets play no role). Replay puts any of them back
// (Departure); the registry's "variant" 1 puts back all (AuthorsCode).
//
// Which departure makes the difference (bench/landmark.md, measured with
// bench/lloeablation): on CHAR (d = 30, λ = 2) replaying all of them gives a
// test triplet error of 0.257, the paper's 0.23, where this LLOE reaches
// 0.037. The balls (Balls) make most of the difference (0.195 alone, 0.067
// without them), the uniform start the rest (0.066 alone); the others
// change nothing measurable on their own.
type LLOE struct {
	// LandmarkFraction sets L = min(⌊LandmarkFraction·n⌋, 100); 0 means 0.05.
	LandmarkFraction float64
	// SubsetFactor sets the first subset size to SubsetFactor·L (capped);
	// 0 means 50.
	SubsetFactor float64
	// MaxSubset caps the sizes before doubling; 0 means 1000.
	MaxSubset int
	// TargetLoss is the mean SOE loss below which the subset doubles; 0 means
	// 0.1.
	TargetLoss float64
	// Multiplier is λ for phase one's random triplets; 0 means 2.
	Multiplier float64
	// Phase2LR is phase two's Adam learning rate; 0 means 0.5.
	Phase2LR float64
	// Phase2Iterations is the number of Adam steps per item; 0 means 100.
	Phase2Iterations int
	// Replay is the set of the authors' code's departures to replay; 0
	// (none) is Anderton & Aslam's method as described, AuthorsCode the
	// paper's LLOE.
	Replay Departure
}

// Name returns "lloe".
func (*LLOE) Name() string { return "lloe" }

// lloeConfig is an LLOE with its defaults resolved and checked.
type lloeConfig struct {
	fraction, factor, target, lambda, lr2 float64
	maxSubset, iters2                     int
	replay                                Departure
}

func (l *LLOE) config() (lloeConfig, error) {
	c := lloeConfig{
		fraction:  param.OrDefault(l.LandmarkFraction, DefaultLLOELandmarkFraction),
		factor:    param.OrDefault(l.SubsetFactor, DefaultLLOESubsetFactor),
		target:    param.OrDefault(l.TargetLoss, DefaultLLOETargetLoss),
		lambda:    param.OrDefault(l.Multiplier, DefaultLLOEMultiplier),
		lr2:       param.OrDefault(l.Phase2LR, DefaultLLOEPhase2LR),
		maxSubset: param.OrDefault(l.MaxSubset, DefaultLLOEMaxSubset),
		iters2:    param.OrDefault(l.Phase2Iterations, DefaultLLOEPhase2Iterations),
		replay:    l.Replay,
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"landmark fraction", c.fraction}, {"subset factor", c.factor}, {"target loss", c.target},
		{"multiplier", c.lambda}, {"phase-2 learning rate", c.lr2}} {
		if err := param.Positive("lloe", p.name, p.v); err != nil {
			return c, err
		}
	}
	if c.maxSubset < 3 {
		return c, fmt.Errorf("lloe: max subset must be ≥ 3, got %d", c.maxSubset)
	}
	if c.iters2 < 0 {
		return c, fmt.Errorf("lloe: phase-2 iterations must be ≥ 0, got %d", c.iters2)
	}
	if c.replay&^AuthorsCode != 0 {
		return c, fmt.Errorf("lloe: unknown departures %d to replay (known: %d, %s)", c.replay&^AuthorsCode, AuthorsCode, AuthorsCode)
	}
	return c, nil
}

// landmarks returns L, the number of LLOE's landmarks for n items.
func (c lloeConfig) landmarks(n int) int { return min(int(c.fraction*float64(n)), 100) }

// schedule returns the phase-one subset sizes to try for n items.
func (c lloeConfig) schedule(n int) ([]int, error) {
	landmarks := c.landmarks(n)
	limit := min(n/2, c.maxSubset)
	s := min(n/2, int(math.Ceil(c.factor*float64(landmarks))), c.maxSubset)
	if s < 3 {
		return nil, fmt.Errorf("lloe: first subset of %d items is too small (n=%d, %d landmarks)", s, n, landmarks)
	}
	sizes := []int{s}
	for s <= limit {
		s *= 2
		if 2*s <= n {
			sizes = append(sizes, s)
		}
	}
	return sizes, nil
}

// phase1Triplets is the number of random triplets phase one asks for a
// subset of s items.
func (c lloeConfig) phase1Triplets(s, d int) int {
	return int(c.lambda * float64(s) * float64(d) * math.Log2(float64(s)))
}

// Budget returns an upper bound on the oracle queries Fit makes for n items
// in d dimensions: every size of the schedule tried in phase one, and the
// largest phase-two cost over the sizes it may keep.
func (l *LLOE) Budget(n, d int) (int64, error) {
	c, err := l.config()
	if err != nil {
		return 0, err
	}
	sizes, err := c.schedule(n)
	if err != nil {
		return 0, err
	}
	var phase1, phase2 int64
	for _, s := range sizes {
		phase1 += int64(c.phase1Triplets(s, d))
		perAnchor := int64(math.Ceil(math.Log2(float64(s))))
		if c.replay&TruthRanking != 0 {
			perAnchor = int64(s - 1) // every other member
		}
		phase2 = max(phase2, int64(n-s)*int64(min(2*(d+1), s))*perAnchor)
	}
	return phase1 + phase2, nil
}

// Fit embeds the oracle's items in p.Dim dimensions.
func (l *LLOE) Fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	start := time.Now()
	n, d, err := checkActive("lloe", p, opt)
	if err != nil {
		return nil, err
	}
	c, err := l.config()
	if err != nil {
		return nil, err
	}
	sizes, err := c.schedule(n)
	if err != nil {
		return nil, err
	}
	lr1, err := opt.LR(DefaultLLOEPhase1LR)
	if err != nil {
		return nil, fmt.Errorf("lloe: %w", err)
	}
	epochs := opt.MaxEpochs
	if epochs <= 0 {
		epochs = DefaultLLOEPhase1Epochs
	}
	batch := lloeBatchSize
	if opt.BatchSize > 0 {
		batch = opt.BatchSize
	}
	stop := opt.Stop
	if stop == (embed.StopRule{}) {
		stop = embed.StopRule{Disabled: true}
	}
	q0 := p.Oracle.Queries()

	// Phase 1: SOE on growing random subsets (nested prefixes of one
	// random order of the items, or with FreshSubsets the order's first L
	// items, the landmarks, and a fresh sample of the others).
	perm := rand.New(rand.NewPCG(opt.Seed, rngStreamLandmarks)).Perm(n)
	subset := func(round, s int) []int { return perm[:s] }
	if c.replay&FreshSubsets != 0 {
		landmarks := min(c.landmarks(n), sizes[0])
		subset = func(round, s int) []int {
			others := slices.Clone(perm[landmarks:])
			rand.New(rand.NewPCG(opt.Seed, rngStreamFreshSubsets+uint64(round))).Shuffle(len(others), func(a, b int) { others[a], others[b] = others[b], others[a] })
			return append(slices.Clone(perm[:landmarks]), others[:s-landmarks]...)
		}
	}
	var kept *embed.Result
	var sub []int
	accepted := 0
	for round, s := range sizes {
		members := subset(round, s)
		set := askRandomTriplets(p.Oracle.Session(streamLLOEPhase1+uint64(round)),
			rand.New(rand.NewPCG(opt.Seed, streamLLOEPhase1+uint64(round))), members, c.phase1Triplets(s, d))
		scale := math.Ldexp(1, accepted)
		res, err := (&tripletloss.SOE{}).Fit(ctx, embed.Problem{Dim: d, Train: set}, embed.Options{
			Seed:         opt.Seed + uint64(round),
			MaxEpochs:    epochs,
			LearningRate: lr1 * scale,
			BatchSize:    min(set.Len(), int(float64(batch)*scale)),
			Threads:      opt.Threads,
			Stop:         stop,
		})
		if err != nil {
			return nil, fmt.Errorf("lloe: phase 1 (subset of %d): %w", s, err)
		}
		if len(res.Trace) == 0 {
			return nil, fmt.Errorf("lloe: phase 1 (subset of %d): SOE ran no epoch", s)
		}
		loss := res.Trace[len(res.Trace)-1].Loss
		if loss < c.target || kept == nil {
			if loss < c.target {
				accepted++
			}
			kept, sub = res, members
			continue
		}
		break
	}

	// Phase 2: insert the others against the kept subset, in parallel.
	m := len(sub)
	raw := kept.Embedding.RawMatrix()
	subEmb := make([]float64, m*d)
	for s := 0; s < m; s++ {
		copy(subEmb[s*d:(s+1)*d], raw.Data[s*raw.Stride:s*raw.Stride+d])
	}
	in := newInserter(sub, subEmb, d, c.lr2, c.iters2, c.replay, opt.Threads)
	emb := mat.NewDense(n, d, nil)
	inSub := make([]bool, n)
	for s, item := range sub {
		copy(emb.RawRowView(item), subEmb[s*d:(s+1)*d])
		inSub[item] = true
	}
	rest := make([]int, 0, n-m) // in perm's order
	for _, item := range perm {
		if !inSub[item] {
			rest = append(rest, item)
		}
	}
	errs := make([]error, len(rest))
	parallel.ForWith(opt.Threads, len(rest), in.newWork, func(w *insertWork, r int) {
		if err := ctx.Err(); err != nil {
			errs[r] = err
			return
		}
		item := rest[r]
		errs[r] = in.place(p.Oracle.Session(streamLLOEPhase2+uint64(item)),
			rand.New(rand.NewPCG(opt.Seed, streamLLOEPhase2+uint64(item))), item, emb.RawRowView(item), w)
	})
	for _, e := range errs {
		if errors.Is(e, errNaN) {
			return nil, embed.Diverged("lloe", kept.Epochs)
		}
		if e != nil {
			return nil, fmt.Errorf("lloe: phase 2: %w", e)
		}
	}
	if !numeric.AllFinite(emb.RawMatrix().Data) {
		return nil, embed.Diverged("lloe", kept.Epochs)
	}
	elapsed := time.Since(start)
	return &embed.Result{
		Embedding:      emb,
		Epochs:         kept.Epochs,
		StopReason:     embed.StopDone,
		Elapsed:        elapsed,
		TimeToConverge: elapsed,
		Queries:        p.Oracle.Queries() - q0,
	}, nil
}

// askRandomTriplets asks count random triplets about the items sub (three
// distinct members, uniform) and returns them oriented by the answers, over
// the subset's own indices 0..len(sub)-1.
func askRandomTriplets(o *triplets.OracleSession, rng *rand.Rand, sub []int, count int) *triplets.Set {
	s := len(sub)
	set := triplets.NewSet(s, count)
	for t := 0; t < count; t++ {
		i := rng.IntN(s)
		j := rng.IntN(s - 1)
		if j >= i {
			j++
		}
		k := rng.IntN(s - 2)
		if k >= min(i, j) {
			k++
		}
		if k >= max(i, j) {
			k++
		}
		if o.Closer(sub[i], sub[j], sub[k]) {
			set.Append(int32(i), int32(j), int32(k))
		} else {
			set.Append(int32(i), int32(k), int32(j))
		}
	}
	return set
}
