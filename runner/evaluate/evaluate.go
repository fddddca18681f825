package evaluate

import (
	"context"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
	"github.com/oe-lab/oe/runner/job"
)

// maxCached is how many loaded datasets an Evaluator keeps: enough for the
// repetitions of one script in flight, bounded because an MNIST-sized set
// takes hundreds of MB.
const maxCached = 6

// Evaluator computes runs. It caches loaded datasets, so that the algorithms
// of one repetition, which share their data, load it once. It is safe for
// concurrent use.
type Evaluator struct {
	mu    sync.Mutex
	cache map[cacheKey]*entry
	order []cacheKey // insertion order, for eviction
}

type cacheKey struct {
	name string
	opt  datasets.Options
}

type entry struct {
	once sync.Once
	ds   *datasets.Dataset
	err  error
}

// New returns an Evaluator.
func New() *Evaluator {
	return &Evaluator{cache: map[cacheKey]*entry{}}
}

// seedOf derives the seed of one purpose ("data", "train", "test", "fit",
// "knn", ...) of the run c under a protocol: "" for a plain run, the
// protocol's prefix (e.g. "oenn-extension/") otherwise. It hashes
// (protocol, Seed, Rep, StandsInFor, purpose) with FNV-1a, so that every
// algorithm of one repetition gets the same seeds.
func seedOf(c job.Config, protocol, purpose string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s%d/%d/%s/%s", protocol, c.Seed, c.Rep, c.StandsInFor, purpose)
	return h.Sum64()
}

// DataOptions returns the options by which the run c loads its data (lib/
// datasets): its items, subsample, synthetic dimension and PCA, so that
// datasets.Load(c.Dataset, DataOptions(c)) is the ground truth the run's
// triplets and metrics come from.
func DataOptions(c job.Config) datasets.Options {
	return datasets.Options{N: c.N, Dim: c.DataDim, PCA: c.PCA, Seed: seedOf(c, "", "data")}
}

// algorithm looks the run's method up, checks that its backend works here
// and builds it. Callers do so before loading data: a cuda run in a build
// or on a machine without CUDA fails at once, with the reason.
func algorithm(c job.Config) (embed.Info, embed.Algorithm, error) {
	info, err := embed.Lookup(c.Algorithm)
	if err != nil {
		return info, nil, err
	}
	if err := info.Available(embed.Backend(c.Backend)); err != nil {
		return info, nil, err
	}
	alg, err := embed.New(c.Algorithm, c.Params)
	return info, alg, err
}

// Run computes the run c on the given number of threads.
func (e *Evaluator) Run(ctx context.Context, c job.Config, threads int) (*job.Outcome, error) {
	info, alg, err := algorithm(c)
	if err != nil {
		return nil, err
	}
	setup := time.Now()
	ds, err := e.load(c.Dataset, DataOptions(c))
	if err != nil {
		return nil, err
	}
	x := ds.X
	n, dataDim := x.Dims()
	m := triplets.Count(c.Lambda, n, c.Dim)
	if m < 1 {
		return nil, fmt.Errorf("λ = %v with n = %d, d = %d gives no triplets", c.Lambda, n, c.Dim)
	}
	noise := c.NoiseModel()
	prob := embed.Problem{N: n, Dim: c.Dim}
	var train *triplets.Set
	if info.Active {
		if prob.Oracle, err = triplets.NewOracle(x, noise, seedOf(c, "", "train")); err != nil {
			return nil, err
		}
	} else {
		if train, err = triplets.Random(x, m, noise, seedOf(c, "", "train"), threads); err != nil {
			return nil, err
		}
		prob.Train = train
	}
	setupSecs := time.Since(setup).Seconds()
	res, err := alg.Fit(ctx, prob, embed.Options{Seed: seedOf(c, "", "fit"), MaxEpochs: c.MaxEpochs, LearningRate: c.LearningRate,
		BatchSize: c.BatchSize, Threads: threads, Backend: embed.Backend(c.Backend), Optimizer: embed.Optimizer(c.Optimizer), Stop: c.StopRule(),
		Checkpoint: job.CheckpointFrom(ctx)})
	if err != nil {
		return nil, err
	}
	evalStart := time.Now()
	out, err := fitted(c, res, n, setupSecs, threads)
	if err != nil {
		return nil, err
	}
	out.Metrics[job.DataDim], out.Labels = float64(dataDim), ds.Labels
	if info.Active {
		out.Metrics[job.Queries] = float64(res.Queries)
	} else {
		out.Metrics[job.Triplets] = float64(m)
		out.Metrics[job.TrainError] = metrics.TripletError(res.Embedding, train)
	}
	if err := measureTruth(out.Metrics, x, ds.Labels, res.Embedding, c, "", threads); err != nil {
		return nil, err
	}
	out.Metrics[job.EvalSeconds] = time.Since(evalStart).Seconds()
	return out, nil
}

// fitted checks that a fit of the run c returned an n × c.Dim embedding
// and returns the outcome it begins: the embedding, the trace and what
// every run measures of its fit (times, epochs, items), set up in
// setupSecs on the given threads.
func fitted(c job.Config, res *embed.Result, n int, setupSecs float64, threads int) (*job.Outcome, error) {
	if res == nil || res.Embedding == nil {
		return nil, fmt.Errorf("%s returned no embedding", c.Algorithm)
	}
	if r, d := res.Embedding.Dims(); r != n || d != c.Dim {
		return nil, fmt.Errorf("%s returned a %d×%d embedding, want %d×%d", c.Algorithm, r, d, n, c.Dim)
	}
	return &job.Outcome{
		Metrics: map[string]float64{
			job.FitSeconds:      res.Elapsed.Seconds(),
			job.ConvergeSeconds: res.TimeToConverge.Seconds(),
			job.SetupSeconds:    setupSecs,
			job.Epochs:          float64(res.Epochs),
			job.Items:           float64(n),
		},
		Trace: res.Trace, StopReason: res.StopReason.String(), Embedding: res.Embedding, Threads: threads,
	}, nil
}

// measureTruth adds to m what the embedding emb of the points x (with their
// labels, or nil) shows against that ground truth: the test triplet error
// on c.TestTriplets fresh noiseless triplets, the Procrustes disparity and,
// for labelled data, the kNN error on the embedding and on the data. The
// random choices are those of run c under the protocol (see seedOf).
func measureTruth(m map[string]float64, x *mat.Dense, labels []int, emb *mat.Dense, c job.Config, protocol string, threads int) error {
	test, err := triplets.Random(x, c.TestTriplets, triplets.Noise{}, seedOf(c, protocol, "test"), threads)
	if err != nil {
		return err
	}
	m[job.TestError] = metrics.TripletError(emb, test)
	if m[job.Procrustes], err = metrics.Procrustes(x, emb); err != nil {
		return fmt.Errorf("procrustes: %w", err)
	}
	if labels != nil {
		knnSeed := seedOf(c, protocol, "knn")
		if m[job.KNNError], err = metrics.KNNError(emb, labels, knnSeed); err != nil {
			return fmt.Errorf("kNN error: %w", err)
		}
		if m[job.KNNErrorData], err = metrics.KNNError(x, labels, knnSeed); err != nil {
			return fmt.Errorf("kNN error on the data: %w", err)
		}
	}
	return nil
}

// load returns the dataset for opt, loading it once however many runs ask
// at the same time.
func (e *Evaluator) load(name string, opt datasets.Options) (*datasets.Dataset, error) {
	k := cacheKey{name, opt}
	e.mu.Lock()
	ent := e.cache[k]
	if ent == nil {
		ent = &entry{}
		e.cache[k] = ent
		e.order = append(e.order, k)
		if len(e.order) > maxCached {
			delete(e.cache, e.order[0])
			e.order = e.order[1:]
		}
	}
	e.mu.Unlock()
	ent.once.Do(func() { ent.ds, ent.err = datasets.Load(name, opt) })
	return ent.ds, ent.err
}
