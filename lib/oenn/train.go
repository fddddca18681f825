package oenn

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
	"github.com/oe-lab/oe/lib/triplets"
)

// Paper defaults (appendix, "Choice of parameters and hyper-parameters").
const (
	// DefaultLearningRate is the Adam learning rate of every OENN run.
	DefaultLearningRate = 0.005
	// DefaultBatchSize caps the batch: min(#triplets, 50,000).
	DefaultBatchSize = 50_000
	// DefaultMaxEpochs bounds a run whose stopping rule never fires.
	DefaultMaxEpochs = 1000
	// margin is the hinge margin of the triplet loss.
	margin = 1
)

// Random streams derived from Options.Seed, one per use, so that changing
// one use (e.g. the encoding) leaves the others' draws unchanged.
const (
	streamInit uint64 = iota + 1
	streamCodes
	streamShuffle
	streamSubset
	streamExtendInit
	streamExtendCodes
)

func newRNG(seed, stream uint64) *rand.Rand { return rand.New(newPCG(seed, stream)) }

// newPCG is newRNG's source, for a stream whose state a checkpoint keeps.
func newPCG(seed, stream uint64) *rand.PCG { return rand.NewPCG(seed, stream*0x9e3779b97f4a7c15) }

// trainer fits one EmbNet to a triplet set by minimising the mean triplet
// hinge loss on squared distances,
//
//	L = 1/|B| Σ_(i,j,k)∈B max(0, ‖yᵢ−yⱼ‖² − ‖yᵢ−yₖ‖² + 1),
//
// over batches B. Triplet indices below nFixed refer to items whose
// embeddings are constants (the frozen network's outputs in the
// out-of-sample extension); index q ≥ nFixed is trainable item q−nFixed,
// embedded by net from its code.
type trainer struct {
	method string
	net    *embNet
	codes  *codes    // codes of the trainable items
	nFixed int       // number of fixed items
	fixed  []float32 // nFixed×dim embeddings of the fixed items
	set    *triplets.Set
	// gpu trains on the cuda backend (gpuNet), which has no fixed items:
	// the extension runs on the CPU.
	gpu bool
}

// run trains t.net and returns the embedding of all set.N items.
func (t *trainer) run(ctx context.Context, opt embed.Options) (*embed.Result, error) {
	start := time.Now()
	if _, err := opt.OptimizerFor(t.method, embed.OptimizerAdam); err != nil {
		return nil, err
	}
	lr, err := opt.LR(DefaultLearningRate)
	if err != nil {
		return nil, err
	}
	if opt.BatchSize < 0 || opt.MaxEpochs < 0 {
		return nil, fmt.Errorf("%s: batch size (%d) and max epochs (%d) must be ≥ 0", t.method, opt.BatchSize, opt.MaxEpochs)
	}
	m := t.set.Len()
	batch := min(m, DefaultBatchSize)
	if opt.BatchSize > 0 {
		batch = min(m, opt.BatchSize)
	}
	maxEpochs := DefaultMaxEpochs
	if opt.MaxEpochs > 0 {
		maxEpochs = opt.MaxEpochs
	}
	rule := opt.Stop.OrDefault()
	tracker := embed.NewTracker(rule)

	d := t.net.dim
	nTrain := t.set.N - t.nFixed
	rows := min(nTrain, 3*batch) // distinct trainable items in one batch
	fixedCap := min(t.nFixed, 3*batch)
	var be backend
	if t.gpu {
		if be, err = newGPUNet(t.net, t.codes, rows, batch, lr); err != nil {
			return nil, fmt.Errorf("%s: %w", t.method, err)
		}
	} else if be, err = newCPUNet(t, rows, fixedCap, lr, opt.Threads); err != nil {
		return nil, fmt.Errorf("%s: %w", t.method, err)
	}
	defer be.close()
	batchRows := make([]int32, 3*batch) // the batch's triplets as rows of its embedding matrix
	slot := make([]int32, t.set.N)      // position of an item in trainList or fixedList, or -1
	for i := range slot {
		slot[i] = -1
	}
	trainList := make([]int32, 0, rows)
	fixedList := make([]int32, 0, fixedCap)

	shuffleSrc := newPCG(opt.Seed, streamShuffle)
	shuffle := rand.New(shuffleSrc)
	perm := make([]int32, m)
	for i := range perm {
		perm[i] = int32(i)
	}
	subset := drawSubset(newRNG(opt.Seed, streamSubset), m, rule.SubsetSize)
	all := make([]float32, t.set.N*d) // embedding of every item, refreshed at checks
	copy(all, t.fixed)

	res := &embed.Result{StopReason: embed.StopMaxEpochs}
	checks := 0
	first := 1
	// resume is where the first epoch goes on from: within it when the
	// checkpoint was written there.
	var resume withinEpoch
	// A checkpoint keeps the CPU backend's state; the GPU's stays on the
	// device, and its runs are not bit-for-bit repeatable anyway.
	cp, cpu := opt.Checkpoint, (*cpuNet)(nil)
	if cp != nil && !t.gpu {
		cpu = be.(*cpuNet)
		h, st, ok, err := loadCheckpoint(cp, len(t.net.params), m, batch, maxEpochs)
		if err != nil {
			return nil, err
		}
		if ok {
			if err := st.restore(cp.Path, cpu, shuffleSrc, perm); err != nil {
				return nil, err
			}
			tracker, checks = embed.ResumeTracker(rule, st.Tracker), st.Checks
			res.Trace, res.Epochs = st.Trace, h.Epochs
			first, start = h.Epochs+1, time.Now().Add(-h.Elapsed)
			resume = st.Within
		}
	}
	save := func(epoch int, within withinEpoch) error {
		return saveCheckpoint(cp, epoch, within, cpu, shuffleSrc, perm, tracker, checks, res, time.Since(start))
	}
	lastSave := time.Now()
	for epoch := first; epoch <= maxEpochs; epoch++ {
		within := resume
		resume = withinEpoch{}
		// The authors' data loader reshuffles the triplets every epoch (an
		// epoch resumed from within has its order already).
		if !within.Begun {
			shuffle.Shuffle(m, func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
		}
		lossSum := within.LossSum
		for from := within.Batches * batch; from < m; from += batch {
			// A checkpoint within the epoch: when the fit is cut short, so
			// that it loses no batch it computed, and every Checkpoint.Every,
			// so that a crash loses no more (an epoch takes minutes to
			// hours at USPS size and d = 50).
			here := withinEpoch{Begun: true, Batches: from / batch, LossSum: lossSum}
			if err := ctx.Err(); err != nil {
				if cpu != nil {
					// A failed write leaves the fit cut short (it is not
					// a failed fit), and says why no state was kept.
					err = errors.Join(err, save(epoch-1, here))
				}
				return t.finish(res, be, all, start, tracker, checks, embed.StopCanceled, err)
			}
			if cpu != nil && from > 0 && cp.Due(lastSave) {
				if err := save(epoch-1, here); err != nil {
					return nil, err
				}
				lastSave = time.Now()
			}
			to := min(from+batch, m)
			// Gather the batch's distinct items: trainable ones go through the
			// network once each, however many triplets they appear in.
			trainList, fixedList = trainList[:0], fixedList[:0]
			for p, tr := range perm[from:to] {
				for c := 0; c < 3; c++ {
					q := t.set.Idx[3*int(tr)+c]
					s := slot[q]
					if s < 0 {
						if int(q) < t.nFixed {
							s = int32(len(fixedList))
							fixedList = append(fixedList, q)
						} else {
							s = int32(len(trainList))
							trainList = append(trainList, q)
						}
						slot[q] = s
					}
					batchRows[3*p+c] = s
				}
			}
			u := len(trainList)
			for p, tr := range perm[from:to] {
				for c := 0; c < 3; c++ {
					if int(t.set.Idx[3*int(tr)+c]) < t.nFixed {
						batchRows[3*p+c] += int32(u)
					}
				}
			}
			for _, q := range trainList {
				slot[q] = -1
			}
			for _, q := range fixedList {
				slot[q] = -1
			}

			nb := to - from
			sum, err := be.step(trainList, fixedList, batchRows[:3*nb], float32(1)/float32(nb))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", t.method, err)
			}
			if !finiteLoss(sum) {
				return nil, embed.Diverged(t.method, epoch)
			}
			lossSum += sum
		}

		entry := embed.Epoch{Epoch: epoch, Loss: lossSum / float64(m), TrainError: math.NaN()}
		stop := false
		if tracker.Due(epoch) {
			if err := be.embed(all[t.nFixed*d:]); err != nil {
				return nil, fmt.Errorf("%s: %w", t.method, err)
			}
			if !numeric.AllFinite(all) {
				return nil, embed.Diverged(t.method, epoch)
			}
			entry.TrainError = tripletError(all, d, t.set, subset)
			checks++
			stop = tracker.Observe(entry.TrainError, time.Since(start).Seconds())
		}
		entry.Elapsed = time.Since(start)
		res.Record(entry, opt.Progress)
		if stop {
			res.StopReason = embed.StopConverged
			break
		}
		if cpu != nil && epoch < maxEpochs && cp.Due(lastSave) {
			if err := save(epoch, withinEpoch{}); err != nil {
				return nil, err
			}
			lastSave = time.Now()
		}
	}
	return t.finish(res, be, all, start, tracker, checks, res.StopReason, nil)
}

// finish computes the final embedding of every item into res and leaves
// the trained parameters in t.net.
func (t *trainer) finish(res *embed.Result, b backend, all []float32, start time.Time, tr *embed.Tracker, checks int, reason embed.StopReason, err error) (*embed.Result, error) {
	d := t.net.dim
	if ferr := b.embed(all[t.nFixed*d:]); ferr != nil {
		return nil, fmt.Errorf("%s: %w", t.method, ferr)
	}
	if !numeric.AllFinite(all) {
		return nil, embed.Diverged(t.method, res.Epochs)
	}
	if ferr := b.sync(); ferr != nil {
		return nil, fmt.Errorf("%s: %w", t.method, ferr)
	}
	emb := mat.NewDense(t.set.N, d, nil)
	raw := emb.RawMatrix().Data
	for i, v := range all {
		raw[i] = float64(v)
	}
	res.Embedding = emb
	res.StopReason = reason
	res.Elapsed = time.Since(start)
	res.TimeToConverge = res.Elapsed
	if checks > 0 {
		res.TimeToConverge = time.Duration(tr.TimeToConverge() * float64(time.Second))
	}
	return res, err
}

// embedItems writes net's embedding of the codes' items into dst, in chunks
// of ws.rows items.
func embedItems(net *embNet, c *codes, ws *workspace, dst []float32) {
	for from := 0; from < c.n; from += ws.rows {
		to := min(from+ws.rows, c.n)
		for i := from; i < to; i++ {
			r := i - from
			c.put(ws.x[r*net.in:(r+1)*net.in], i)
		}
		net.forward(ws, to-from)
		copy(dst[from*net.dim:to*net.dim], ws.y[:(to-from)*net.dim])
	}
}

// hinge returns the summed hinge loss of the triplets whose rows of y
// (row-major, d columns) are given three at a time, and writes into dy the
// gradient of scale × that sum with respect to y.
func hinge(y []float32, d int, rows []int32, scale float32, dy []float32) float64 {
	clear(dy)
	var sum float64
	two := 2 * scale
	for t := 0; t < len(rows); t += 3 {
		i, j, k := int(rows[t])*d, int(rows[t+1])*d, int(rows[t+2])*d
		yi, yj, yk := y[i:i+d], y[j:j+d], y[k:k+d]
		var dij, dik float32
		for c, v := range yi {
			a, b := v-yj[c], v-yk[c]
			dij += a * a
			dik += b * b
		}
		l := dij - dik + margin
		if l <= 0 {
			continue
		}
		sum += float64(l)
		gi, gj, gk := dy[i:i+d], dy[j:j+d], dy[k:k+d]
		for c, v := range yi {
			a, b := v-yj[c], v-yk[c]
			gi[c] += two * (a - b)
			gj[c] -= two * a
			gk[c] += two * b
		}
	}
	return sum
}

// drawSubset returns the training triplets on which the stopping rule
// measures the train error: all of them when there are at most size,
// otherwise size drawn uniformly with replacement (as the authors' code
// does), fixed for the run.
func drawSubset(rng *rand.Rand, m, size int) []int32 {
	if m <= size {
		return nil
	}
	s := make([]int32, size)
	for i := range s {
		s[i] = int32(rng.IntN(m))
	}
	return s
}

// tripletError returns the fraction of triplets (the subset's, or all when
// subset is nil) that the embedding y violates (triplets.Violated: ties count
// as violated, as in the authors' OENN code).
func tripletError(y []float32, d int, set *triplets.Set, subset []int32) float64 {
	violated := func(t int) bool {
		i, j, k := set.At(t)
		yi, yj, yk := y[int(i)*d:int(i+1)*d], y[int(j)*d:int(j+1)*d], y[int(k)*d:int(k+1)*d]
		var dij, dik float64
		for c, v := range yi {
			a, b := float64(v-yj[c]), float64(v-yk[c])
			dij += a * a
			dik += b * b
		}
		return triplets.Violated(dij, dik)
	}
	bad := 0
	if subset == nil {
		for t := 0; t < set.Len(); t++ {
			if violated(t) {
				bad++
			}
		}
		return float64(bad) / float64(set.Len())
	}
	for _, t := range subset {
		if violated(int(t)) {
			bad++
		}
	}
	return float64(bad) / float64(len(subset))
}

// finiteLoss reports whether a batch's summed loss is neither NaN nor ±Inf.
func finiteLoss(sum float64) bool { return !math.IsNaN(sum) && !math.IsInf(sum, 0) }
