package tripletloss

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/optim"
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
	// ridge is λ of the term λ‖X‖²_F added to the loss (GNMDS-x).
	ridge float64
	// initScale multiplies the uniform [0,1) initial embedding.
	initScale float64
	// startFrom, when not nil, is the method whose fit of the same problem
	// starts this one (startingEmbedding) instead of the random start.
	startFrom method
}

// fit is the training loop shared by all five methods.
func (r run) fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	start := time.Now()
	if err := p.Check(true); err != nil {
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}
	n, d := p.Items(), p.Dim
	idx := p.Train.Idx
	m := p.Train.Len()
	set, err := r.settings(opt, m)
	if err != nil {
		return nil, err
	}
	backend, err := r.backend(opt.Backend, set.optimizer)
	if err != nil {
		return nil, err
	}
	rule := opt.Stop.OrDefault()
	// A checkpoint (opt.Checkpoint, kept by CPU fits with Adam) holds the
	// state after some epochs and batches of the next: the fit goes on from
	// there, and needs no starting embedding.
	var resume *resumption
	cp := opt.Checkpoint
	if backend != embed.BackendCPU || set.optimizer != embed.OptimizerAdam {
		cp = nil
	}
	if cp != nil {
		h, st, ok, err := r.loadCheckpoint(cp, n, d, set.batches(m), set.maxEpochs)
		if err != nil {
			return nil, err
		}
		if ok {
			resume = &resumption{header: h, state: st}
			start = time.Now().Add(-h.Elapsed)
		}
	}
	x0 := initialEmbedding(n, d, r.initScale, opt.Seed)
	if r.startFrom != nil && resume == nil {
		if x0, err = r.startingEmbedding(ctx, p, opt, x0); err != nil {
			return nil, err
		}
	}
	sel := subsetPositions(m, rule.SubsetSize, opt.Seed)
	if set.optimizer == embed.OptimizerLBFGS {
		tr, err := newCPUTrainer(r.loss, r.ridge, x0, n, d, set.threads, DefaultLearningRate, idx, sel)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.name, err)
		}
		return r.trainLBFGS(ctx, tr, m, set, opt, start)
	}
	if backend == embed.BackendCUDA {
		tr, err := newGPUTrainer(r.loss, r.ridge, x0, n, d, set.lr, idx, sel)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.name, err)
		}
		defer tr.close()
		return r.train(ctx, tr, m, set, opt, start, nil, nil)
	}
	tr, err := newCPUTrainer(r.loss, r.ridge, x0, n, d, set.threads, set.lr, idx, sel)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}
	if resume != nil {
		if err := resume.state.restore(cp.Path, r.name, tr); err != nil {
			return nil, err
		}
	}
	return r.train(ctx, tr, m, set, opt, start, cp, resume)
}

// resumption is where a fit resumed from its checkpoint stands.
type resumption struct {
	header embed.CheckpointHeader
	state  checkpoint
}

// settings are a fit's options resolved against the method's defaults.
type settings struct {
	optimizer                 embed.Optimizer
	lr                        float64
	maxEpochs, batch, threads int
}

// settings validates opt and resolves it for a fit on m triplets.
func (r run) settings(opt embed.Options, m int) (settings, error) {
	optimizer, err := opt.OptimizerFor(r.name, optimizers...)
	if err != nil {
		return settings{}, err
	}
	if optimizer == embed.OptimizerLBFGS && (opt.LearningRate != 0 || opt.BatchSize != 0) {
		return settings{}, fmt.Errorf("%s: L-BFGS takes no learning rate or batch size (its line search sets the steps, on the full batch)", r.name)
	}
	lr, err := opt.LR(DefaultLearningRate)
	if err != nil {
		return settings{}, fmt.Errorf("%s: %w", r.name, err)
	}
	if opt.MaxEpochs < 0 {
		return settings{}, fmt.Errorf("%s: MaxEpochs must be ≥ 0, got %d", r.name, opt.MaxEpochs)
	}
	if opt.BatchSize < 0 {
		return settings{}, fmt.Errorf("%s: batch size must be ≥ 0, got %d", r.name, opt.BatchSize)
	}
	if opt.Threads < 0 {
		return settings{}, fmt.Errorf("%s: thread count must be ≥ 0, got %d", r.name, opt.Threads)
	}
	s := settings{optimizer: optimizer, lr: lr, maxEpochs: opt.MaxEpochs, batch: min(m, DefaultBatchSize), threads: opt.Threads}
	if s.maxEpochs == 0 {
		s.maxEpochs = DefaultMaxEpochs
	}
	if opt.BatchSize > 0 {
		s.batch = min(m, opt.BatchSize)
	}
	if s.threads == 0 {
		s.threads = defaultThreads()
	}
	// More workers than triplets in a batch would only add empty shares.
	s.threads = max(1, min(s.threads, s.batch))
	return s, nil
}

// backend resolves Options.Backend for this method with the optimiser o:
// auto becomes cuda when CUDA works here (cuda.Available) and o runs there,
// else cpu; cuda with an optimiser without a GPU path (L-BFGS) is an error.
func (r run) backend(name embed.Backend, o embed.Optimizer) (embed.Backend, error) {
	info := embed.Info{Name: r.name, Backends: gpuBackends}
	b, err := info.ResolveBackendFor(string(name), o)
	if err != nil {
		return "", fmt.Errorf("%s: %w", r.name, err)
	}
	return b, nil
}

// batches returns the number of batches of an epoch on m triplets.
func (s settings) batches(m int) int { return (m + s.batch - 1) / s.batch }

// train runs the epochs of a fit on tr's m triplets in batches of
// set.batch, until the stopping rule fires or after set.maxEpochs. Given a
// checkpoint cp (CPU trainers only), it keeps its state there between two
// batches, at most every cp.Interval() and when ctx is cancelled; resume,
// when not nil, is the state the fit goes on from (already in tr).
func (r run) train(ctx context.Context, tr trainer, m int, set settings, opt embed.Options, start time.Time, cp *embed.Checkpoint, resume *resumption) (*embed.Result, error) {
	maxEpochs, batch, batches := set.maxEpochs, set.batch, set.batches(m)
	res := &embed.Result{StopReason: embed.StopMaxEpochs, Trace: make([]embed.Epoch, 0, min(maxEpochs, 4096))}
	first, resumeBatches, resumeLoss := 1, 0, 0.0
	var tracker *embed.Tracker
	if resume != nil {
		st := resume.state
		tracker = embed.ResumeTracker(opt.Stop.OrDefault(), st.Tracker)
		res.Trace, res.Epochs = append(res.Trace, st.Trace...), resume.header.Epochs
		first, resumeBatches, resumeLoss = resume.header.Epochs+1, st.Batches, st.LossSum
	} else {
		tracker = embed.NewTracker(opt.Stop.OrDefault())
		// The authors measure the error once before training, so the
		// first check after Every epochs already compares against
		// something.
		e0, err := tr.subsetError()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.name, err)
		}
		tracker.Observe(e0, 0)
	}
	// Only the CPU trainer keeps a checkpoint (fit passes none else).
	cpu, _ := tr.(*cpuTrainer)
	save := func(epoch, batches int, loss float64) error {
		return cpu.saveCheckpoint(cp, epoch, batches, loss, tracker, res, time.Since(start))
	}
	lastSave := time.Now()
	for epoch := first; epoch <= maxEpochs; epoch++ {
		loss, fromBatch := resumeLoss, resumeBatches
		resumeLoss, resumeBatches = 0, 0
		for b := fromBatch; b < batches; b++ {
			// Between two batches: cut short, the fit keeps its state so
			// that it loses no batch it computed; and every
			// Checkpoint.Every, so that a crash loses no more. (An epoch
			// takes about half a minute at 60,000 items, d = 50 and
			// λ = 2, on one core.)
			if err := ctx.Err(); err != nil {
				if cp != nil {
					// A failed write leaves the fit cut short (not
					// failed), and says why no state was kept.
					err = errors.Join(err, save(epoch-1, b, loss))
				}
				res.StopReason = embed.StopCanceled
				if ferr := r.finish(res, tr, start, tracker); ferr != nil {
					return nil, ferr
				}
				return res, fmt.Errorf("%s: epoch %d: %w", r.name, epoch, err)
			}
			if cp != nil && b > fromBatch && cp.Due(lastSave) {
				if err := save(epoch-1, b, loss); err != nil {
					return nil, err
				}
				lastSave = time.Now()
			}
			from := b * batch
			l, err := tr.step(from, min(from+batch, m))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.name, err)
			}
			loss += l
		}
		finite, err := tr.finite()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.name, err)
		}
		if math.IsNaN(loss) || math.IsInf(loss, 0) || !finite {
			return nil, embed.Diverged(r.name, epoch)
		}
		elapsed := time.Since(start)
		e := embed.Epoch{Epoch: epoch, Loss: loss / float64(m), TrainError: math.NaN(), Elapsed: elapsed}
		stop := false
		if tracker.Due(epoch) {
			if e.TrainError, err = tr.subsetError(); err != nil {
				return nil, fmt.Errorf("%s: %w", r.name, err)
			}
			stop = tracker.Observe(e.TrainError, elapsed.Seconds())
		}
		res.Record(e, opt.Progress)
		if stop {
			res.StopReason = embed.StopConverged
			break
		}
		if cp != nil && epoch < maxEpochs && cp.Due(lastSave) {
			if err := save(epoch, 0, 0); err != nil {
				return nil, err
			}
			lastSave = time.Now()
		}
	}
	if err := r.finish(res, tr, start, tracker); err != nil {
		return nil, err
	}
	return res, nil
}

// trainLBFGS minimises the loss over all m triplets by L-BFGS from tr's
// embedding, one iteration an epoch: the stopping rule's checks and the
// epoch cap count iterations. A line search that can no longer lower the
// loss (at the float32 precision of the kernel) ends the run as converged.
func (r run) trainLBFGS(ctx context.Context, tr *cpuTrainer, m int, set settings, opt embed.Options, start time.Time) (*embed.Result, error) {
	tracker := embed.NewTracker(opt.Stop.OrDefault())
	tracker.Observe(tr.k.tripletError(tr.subset), 0)
	res := &embed.Result{StopReason: embed.StopMaxEpochs, Trace: make([]embed.Epoch, 0, min(set.maxEpochs, 4096))}
	x := tr.k.embedding()
	l := optim.LBFGS{
		MaxIterations: set.maxEpochs,
		FuncGrad:      tr.lossGrad,
		// Every iteration is recorded before a cancellation stops the run,
		// so the embedding returned is always that of the last epoch in
		// the trace.
		Iterate: func(epoch int, x []float64, f float64) (bool, error) {
			tr.setEmbedding(x)
			elapsed := time.Since(start)
			e := embed.Epoch{Epoch: epoch, Loss: f / float64(m), TrainError: math.NaN(), Elapsed: elapsed}
			stop := false
			if tracker.Due(epoch) {
				e.TrainError = tr.k.tripletError(tr.subset)
				stop = tracker.Observe(e.TrainError, elapsed.Seconds())
			}
			res.Record(e, opt.Progress)
			return stop, ctx.Err()
		},
	}
	_, why, err := l.Minimize(x)
	tr.setEmbedding(x)
	switch {
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		res.StopReason = embed.StopCanceled
		if ferr := r.finish(res, tr, start, tracker); ferr != nil {
			return nil, ferr
		}
		return res, fmt.Errorf("%s: epoch %d: %w", r.name, len(res.Trace)+1, err)
	case errors.Is(err, optim.ErrNotFinite):
		return nil, embed.Diverged(r.name, len(res.Trace)+1)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", r.name, err)
	case why == optim.LBFGSStopped, why == optim.LBFGSNoProgress:
		res.StopReason = embed.StopConverged
	}
	if err := r.finish(res, tr, start, tracker); err != nil {
		return nil, err
	}
	return res, nil
}

// finish copies the embedding out and fills in the timings.
func (r run) finish(res *embed.Result, tr trainer, start time.Time, t *embed.Tracker) error {
	emb, err := tr.embedding()
	if err != nil {
		return fmt.Errorf("%s: %w", r.name, err)
	}
	res.Embedding = mat.NewDense(len(emb)/tr.dim(), tr.dim(), emb)
	res.Elapsed = time.Since(start)
	res.TimeToConverge = time.Duration(t.TimeToConverge() * float64(time.Second))
	return nil
}

// startingEmbedding fits p with r.startFrom (its defaults, opt's seed,
// threads and backend) and returns that embedding centred on the centroid
// of the random start x0 and scaled to its spread (root mean squared
// distance from the centroid), so that the method starts at the scale its
// settings (learning rate, CKL-x's μ) were chosen for.
func (r run) startingEmbedding(ctx context.Context, p embed.Problem, opt embed.Options, x0 []float32) ([]float32, error) {
	res, err := r.startFrom.Fit(ctx, p, embed.Options{Seed: opt.Seed, Threads: opt.Threads, Backend: opt.Backend})
	if err != nil {
		return nil, fmt.Errorf("%s: starting from %s: %w", r.name, r.startFrom.Name(), err)
	}
	n, d := res.Embedding.Dims()
	x := make([]float64, n*d)
	for i := range n {
		for j := range d {
			x[i*d+j] = res.Embedding.At(i, j)
		}
	}
	want, wantSpread := centroidSpread(x0, d)
	have, haveSpread := centroidSpread(x, d)
	if !(haveSpread > 0) || math.IsInf(haveSpread, 0) {
		return nil, fmt.Errorf("%s: %s's starting embedding has spread %v", r.name, r.startFrom.Name(), haveSpread)
	}
	out := make([]float32, n*d)
	for e, v := range x {
		out[e] = float32(want[e%d] + (v-have[e%d])*(wantSpread/haveSpread))
	}
	return out, nil
}

// centroidSpread returns the centroid of the n×d rows x and their root mean
// squared distance from it.
func centroidSpread[F float32 | float64](x []F, d int) (centroid []float64, spread float64) {
	n := len(x) / d
	centroid = make([]float64, d)
	for e, v := range x {
		centroid[e%d] += float64(v)
	}
	for j := range centroid {
		centroid[j] /= float64(n)
	}
	var sq float64
	for e, v := range x {
		diff := float64(v) - centroid[e%d]
		sq += diff * diff
	}
	return centroid, math.Sqrt(sq / float64(n))
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

// subsetPositions draws the stopping rule's fixed subset of size training
// triplets as positions in the set, with replacement as the authors do; nil
// (meaning all m) when size ≥ m.
func subsetPositions(m, size int, seed uint64) []int32 {
	if size >= m {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, streamSubset))
	sel := make([]int32, size)
	for s := range sel {
		sel[s] = int32(rng.IntN(m))
	}
	return sel
}

func defaultThreads() int { return runtime.GOMAXPROCS(0) }
