package evaluate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/oenn"
	"github.com/oe-lab/oe/lib/triplets"
	"github.com/oe-lab/oe/runner/job"
)

// ExtensionVersion is the version of the out-of-sample protocol. It is part
// of every extension run's config (Extension.Job), so bumping it re-executes
// them; bump it when a change alters an extension run's results.
const ExtensionVersion = 1

// extensionProtocol names the protocol in an extension run's config, and
// extensionSeeds prefixes the purposes of its seeds (see seedOf).
const (
	extensionProtocol = "oenn_extension"
	extensionSeeds    = "oenn-extension/"
)

// Extension is OENN's out-of-sample protocol, the paper's "Generalization
// to new items" (supplement). The run's data is split into training items
// and a fraction TestFraction of new items: the dataset's own train and
// test sets where that fraction of all its items is its test set (USPS's
// 7,291/2,007, as the paper splits it; see datasetSplit), else at random; OENN_train is
// fitted on λ·n·d·log₂n triplets of the training items (n of them, with the
// run's noise); then OENN's extension (the trained network frozen, a fresh
// EmbNet for the new items) is fitted on NewTriplets triplets (x*, y, z),
// x* new and y, z training items (lib/triplets' RandomOutOfSample).
//
// Run measures OENN_train on the training items as Evaluator.Run measures
// any run (job.TrainError, TestError, Procrustes, KNNError, KNNErrorData,
// FitSeconds, ConvergeSeconds, Epochs, Triplets, Items), and the extension
// by the job.Extension* metrics. The outcome's embedding has the training
// items' rows first, then the new items'. Every random choice derives from
// the run's Seed, Rep and StandsInFor, apart from those of plain runs.
type Extension struct {
	// TestFraction is the fraction of the items held out as new items, in
	// (0, 1).
	TestFraction float64
	// NewTriplets is the number of triplets the extension is fitted on.
	NewTriplets int
}

// Check rejects a fraction outside (0, 1) and fewer than one triplet.
func (x Extension) Check() error {
	if !(x.TestFraction > 0 && x.TestFraction < 1) {
		return fmt.Errorf("evaluate: extension: test fraction %v, want it in (0, 1)", x.TestFraction)
	}
	if x.NewTriplets < 1 {
		return fmt.Errorf("evaluate: extension: %d new triplets, want ≥ 1", x.NewTriplets)
	}
	return nil
}

// Job returns the canonical config and key of the extension run built on
// the run c: c's config wrapped with the protocol's name, version,
// TestFraction and NewTriplets (job.Canonical.Wrap).
// A run on the dataset's own split adds "split": "dataset", so that its key
// differs from the random split's that earlier versions drew.
func (x Extension) Job(c job.Canonical) (job.Canonical, error) {
	settings := map[string]any{"version": ExtensionVersion, "test_fraction": x.TestFraction, "new_triplets": x.NewTriplets}
	if x.datasetSplit(c.Config) {
		settings["split"] = "dataset"
	}
	return c.Wrap(extensionProtocol, settings)
}

// datasetSplit reports whether the run c takes its dataset's own train and
// test sets as training and new items: the dataset has such a split
// (datasets.Spec.Train), c takes every item of its files (datasets.Load
// then keeps their order, train set first), and TestFraction of them is the
// test set. Otherwise the split is random.
func (x Extension) datasetSplit(c job.Config) bool {
	spec, err := datasets.Lookup(c.Dataset)
	if err != nil || spec.Train == 0 || c.N != spec.Available {
		return false
	}
	return int(math.Round(x.TestFraction*float64(c.N))) == spec.Available-spec.Train
}

// Run computes the extension run whose base run is c, on the given number
// of threads; it has the signature of runner/execute's EvalFunc.
func (x Extension) Run(ctx context.Context, c job.Config, threads int) (*job.Outcome, error) {
	if err := x.Check(); err != nil {
		return nil, err
	}
	seed := func(purpose string) uint64 { return seedOf(c, extensionSeeds, purpose) }
	ds, err := datasets.Load(c.Dataset, datasets.Options{N: c.N, Dim: c.DataDim, PCA: c.PCA, Seed: seed("data")})
	if err != nil {
		return nil, err
	}
	n, dataDim := ds.X.Dims()
	nNew := int(math.Round(x.TestFraction * float64(n)))
	nTrain := n - nNew
	if nNew < 1 || nTrain < 3 {
		return nil, fmt.Errorf("evaluate: extension: %d items split %d/%d: need ≥ 3 training items and ≥ 1 new item", n, nTrain, nNew)
	}
	// Rows 0..nTrain-1 of all are the training items, the rest the new
	// ones: the order of the extension's embedding.
	all, labels := ds.X, ds.Labels
	if !x.datasetSplit(c) {
		all, labels = splitRows(ds.X, ds.Labels, nNew, seed("split"))
	}
	train := all.Slice(0, nTrain, 0, dataDim).(*mat.Dense)
	var trainLabels []int
	if labels != nil {
		trainLabels = labels[:nTrain]
	}
	noise := c.NoiseModel()
	m := triplets.Count(c.Lambda, nTrain, c.Dim)
	set, err := triplets.Random(train, m, noise, seed("train"), threads)
	if err != nil {
		return nil, err
	}
	alg, err := embed.New(c.Algorithm, c.Params)
	if err != nil {
		return nil, err
	}
	trained, ok := alg.(interface{ Model() *oenn.Model })
	if !ok {
		return nil, fmt.Errorf("evaluate: extension: %s has no trained model to extend", c.Algorithm)
	}
	// The base fit, the run's longest part (days at USPS size on one core),
	// keeps the run's checkpoint (job.WithCheckpoint) and goes on from it.
	opt := embed.Options{Seed: seed("fit"), MaxEpochs: c.MaxEpochs, LearningRate: c.LearningRate, BatchSize: c.BatchSize, Threads: threads, Stop: c.StopRule(),
		Checkpoint: job.CheckpointFrom(ctx)}
	base, err := alg.Fit(ctx, embed.Problem{N: nTrain, Dim: c.Dim, Train: set}, opt)
	if err != nil {
		return nil, err
	}
	fresh, err := triplets.RandomOutOfSample(all, nTrain, x.NewTriplets, noise, seed("new"))
	if err != nil {
		return nil, err
	}
	// The extension keeps none: the file holds the base fit's state, and a
	// run cut short during the extension goes on from there.
	opt.Seed, opt.Checkpoint = seed("extend"), nil
	ext, err := trained.Model().Extend(ctx, fresh, opt)
	if err != nil {
		return nil, err
	}
	out := &job.Outcome{
		Metrics: map[string]float64{
			job.FitSeconds: base.Elapsed.Seconds(), job.ConvergeSeconds: base.TimeToConverge.Seconds(),
			job.Epochs: float64(base.Epochs), job.Triplets: float64(m), job.Items: float64(nTrain),
			job.DataDim: float64(dataDim), job.TrainError: metrics.TripletError(base.Embedding, set),
			job.ExtensionSeconds: ext.Elapsed.Seconds(), job.ExtensionEpochs: float64(ext.Epochs),
			job.ExtensionItems: float64(nNew), job.ExtensionTriplets: float64(fresh.Len()),
			job.ExtensionError: metrics.TripletError(ext.Embedding, fresh),
		},
		Trace: base.Trace, StopReason: base.StopReason.String(), Embedding: ext.Embedding, Labels: labels, Threads: threads,
	}
	start := time.Now()
	if err := measureTruth(out.Metrics, train, trainLabels, base.Embedding, c, extensionSeeds, threads); err != nil {
		return nil, err
	}
	if err := measureNew(out.Metrics, all, labels, nTrain, ext.Embedding, c); err != nil {
		return nil, err
	}
	out.Metrics[job.EvalSeconds] = time.Since(start).Seconds()
	return out, nil
}

// measureNew measures the extension: fresh noiseless triplets of the form
// it was fitted on, the Procrustes disparity of all items, and how well the
// training items' labels predict the new items' in the embedding and in
// the data.
func measureNew(m map[string]float64, all *mat.Dense, labels []int, nTrain int, emb *mat.Dense, c job.Config) error {
	test, err := triplets.RandomOutOfSample(all, nTrain, c.TestTriplets, triplets.Noise{}, seedOf(c, extensionSeeds, "new-test"))
	if err != nil {
		return err
	}
	m[job.ExtensionTestError] = metrics.TripletError(emb, test)
	if m[job.ExtensionProcrustes], err = metrics.Procrustes(all, emb); err != nil {
		return fmt.Errorf("procrustes of all items: %w", err)
	}
	if labels == nil {
		return nil
	}
	for _, v := range []struct {
		metric string
		pts    *mat.Dense
	}{{job.ExtensionKNNError, emb}, {job.ExtensionKNNErrorData, all}} {
		metric, pts := v.metric, v.pts
		n, d := pts.Dims()
		train, fresh := pts.Slice(0, nTrain, 0, d).(*mat.Dense), pts.Slice(nTrain, n, 0, d).(*mat.Dense)
		if m[metric], err = metrics.CrossKNNError(train, labels[:nTrain], fresh, labels[nTrain:]); err != nil {
			return fmt.Errorf("%s: %w", metric, err)
		}
	}
	return nil
}

// splitRows returns the rows of x reordered so that a seeded random choice
// of nNew rows comes last, each part in its original order, with the
// labels in the same order (nil stays nil).
func splitRows(x *mat.Dense, labels []int, nNew int, seed uint64) (*mat.Dense, []int) {
	n, d := x.Dims()
	perm := rand.New(rand.NewPCG(seed, 0x5e11)).Perm(n)
	newRows, trainRows := perm[:nNew], perm[nNew:]
	slices.Sort(newRows)
	slices.Sort(trainRows)
	order := append(trainRows, newRows...)
	out := mat.NewDense(n, d, nil)
	var lab []int
	if labels != nil {
		lab = make([]int, n)
	}
	for r, src := range order {
		out.SetRow(r, x.RawRowView(src))
		if labels != nil {
			lab[r] = labels[src]
		}
	}
	return out, lab
}
