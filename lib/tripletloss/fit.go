package tripletloss

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
)

const (
	// DefaultMaxEpochs caps a run whose stopping rule has not fired. The
	// paper's convergence plots run 500 epochs; SOE on CHAR stops by the rule
	// after about 100–200.
	DefaultMaxEpochs = 1000
	// DefaultBatchSize is the paper's batch size, min(#triplets, 1,000,000).
	DefaultBatchSize = 1_000_000
	// DefaultLearningRate is the paper's Adam learning rate for these methods.
	DefaultLearningRate = 1.0
)

// Random streams drawn from the seed; distinct so that changing one use of
// randomness does not shift another.
const (
	streamInit   = 0x1417
	streamSubset = 0x5b5e7
)

// run holds what fit needs besides the problem and options.
type run struct {
	name string
	loss lossFunc
	// initScale multiplies the uniform [0,1) initial embedding.
	initScale float64
}

// fit is the training loop shared by all four methods.
func (r run) fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	start := time.Now()
	if err := p.Check(true); err != nil {
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}
	lr, err := opt.LR(DefaultLearningRate)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}
	if opt.MaxEpochs < 0 {
		return nil, fmt.Errorf("%s: MaxEpochs must be ≥ 0, got %d", r.name, opt.MaxEpochs)
	}
	if opt.BatchSize < 0 {
		return nil, fmt.Errorf("%s: batch size must be ≥ 0, got %d", r.name, opt.BatchSize)
	}
	if opt.Threads < 0 {
		return nil, fmt.Errorf("%s: thread count must be ≥ 0, got %d", r.name, opt.Threads)
	}
	n, d := p.Items(), p.Dim
	idx := p.Train.Idx
	m := p.Train.Len()
	maxEpochs := opt.MaxEpochs
	if maxEpochs == 0 {
		maxEpochs = DefaultMaxEpochs
	}
	batch := min(m, DefaultBatchSize)
	if opt.BatchSize > 0 {
		batch = min(m, opt.BatchSize)
	}
	threads := opt.Threads
	if threads == 0 {
		threads = defaultThreads()
	}
	// More workers than triplets in a batch would only add empty shares.
	threads = max(1, min(threads, batch))

	k, err := newKernel(r.loss, initialEmbedding(n, d, r.initScale, opt.Seed), n, d, threads, lr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}

	rule := opt.Stop.OrDefault()
	tracker := embed.NewTracker(rule)
	subset := subsetOf(idx, m, rule.SubsetSize, opt.Seed)
	// The authors measure the error once before training, so the first
	// check after Every epochs already compares against something.
	tracker.Observe(k.tripletError(subset), 0)

	res := &embed.Result{StopReason: embed.StopMaxEpochs, Trace: make([]embed.Epoch, 0, min(maxEpochs, 4096))}
	for epoch := 1; epoch <= maxEpochs; epoch++ {
		var loss float64
		for from := 0; from < m; from += batch {
			if err := ctx.Err(); err != nil {
				res.StopReason = embed.StopCanceled
				return r.finish(res, k, start, tracker), fmt.Errorf("%s: epoch %d: %w", r.name, epoch, err)
			}
			to := min(from+batch, m)
			l, err := k.step(idx[3*from : 3*to])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.name, err)
			}
			loss += l
		}
		if math.IsNaN(loss) || math.IsInf(loss, 0) || !allFinite(k.x) {
			return nil, embed.Diverged(r.name, epoch)
		}
		elapsed := time.Since(start)
		e := embed.Epoch{Epoch: epoch, Loss: loss / float64(m), TrainError: math.NaN(), Elapsed: elapsed}
		stop := false
		if tracker.Due(epoch) {
			e.TrainError = k.tripletError(subset)
			stop = tracker.Observe(e.TrainError, elapsed.Seconds())
		}
		res.Trace = append(res.Trace, e)
		res.Epochs = epoch
		if opt.Progress != nil {
			opt.Progress(e)
		}
		if stop {
			res.StopReason = embed.StopConverged
			break
		}
	}
	return r.finish(res, k, start, tracker), nil
}

// finish copies the embedding out and fills in the timings.
func (r run) finish(res *embed.Result, k *kernel, start time.Time, t *embed.Tracker) *embed.Result {
	res.Embedding = mat.NewDense(k.n, k.d, k.embedding())
	res.Elapsed = time.Since(start)
	res.TimeToConverge = time.Duration(t.TimeToConverge() * float64(time.Second))
	return res
}

// initialEmbedding draws X uniform in [0, scale)^(n×d) from the seed.
func initialEmbedding(n, d int, scale float64, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, streamInit))
	x := make([]float32, n*d)
	for e := range x {
		x[e] = float32(scale * rng.Float64())
	}
	return x
}

// subsetOf draws the stopping rule's fixed subset of size training triplets,
// with replacement as the authors do; all of them when size ≥ m.
func subsetOf(idx []int32, m, size int, seed uint64) []int32 {
	if size >= m {
		return idx[:3*m]
	}
	rng := rand.New(rand.NewPCG(seed, streamSubset))
	sub := make([]int32, 3*size)
	for s := 0; s < size; s++ {
		t := rng.IntN(m)
		copy(sub[3*s:3*s+3], idx[3*t:3*t+3])
	}
	return sub
}

func defaultThreads() int { return runtime.GOMAXPROCS(0) }

func allFinite(x []float32) bool {
	for _, v := range x {
		if v-v != 0 { // NaN or ±Inf
			return false
		}
	}
	return true
}
