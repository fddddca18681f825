package evaluate

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
	"github.com/oe-lab/oe/runner/job"
)

// ComparisonsVersion is the version of the protocol of datasets of
// comparisons; it is part of every such run's config (Comparisons.Job), so
// bumping it re-executes them.
const ComparisonsVersion = 1

// comparisonsProtocol names the protocol in a run's config, and
// comparisonsSeeds prefixes the purposes of its seeds (see seedOf).
const (
	comparisonsProtocol = "comparisons"
	comparisonsSeeds    = "comparisons/"
)

// Comparisons is the protocol of a dataset of comparisons people answered
// (lib/datasets KindComparisons, e.g. material): no points and no drawn
// triplets. The method is fitted on the dataset's training answers, one
// triplet per vote built as Votes says, and scored on its test answers:
// job.TestError is the triplet error on every test vote (in the voter's
// orientation) and job.MajorityTestError the dataset authors' measure.
//
// With Folds > 0 the run is fold Fold (0-based) of a Folds-fold
// cross-validation on the training answers instead: the folds hold out
// whole queries (triplets.Folds, drawn from the run's Seed and Rep), the
// method is fitted on the other folds, and TestError and MajorityTestError
// measure the fold held out. The dataset's test answers are not used.
//
// The run's N, DataDim, PCA, noise and Lambda do not apply (Lambda keeps
// the value the config normalised it to); an active method is an error.
type Comparisons struct {
	Votes       datasets.Votes
	Folds, Fold int
}

// Check rejects an unknown construction and a fold outside [0, Folds).
func (x Comparisons) Check() error {
	switch {
	case x.Votes != datasets.EachVote && x.Votes != datasets.MajorityVote:
		return fmt.Errorf("evaluate: comparisons: unknown construction %v", x.Votes)
	case x.Folds < 0 || x.Folds == 1 || (x.Folds > 0 && (x.Fold < 0 || x.Fold >= x.Folds)) || (x.Folds == 0 && x.Fold != 0):
		return fmt.Errorf("evaluate: comparisons: fold %d of %d folds, want 0 folds or fold in [0, folds) of at least 2", x.Fold, x.Folds)
	}
	return nil
}

// Job returns the canonical config and key of the run c under the protocol:
// c's config wrapped with the protocol's name, version, Votes and folds.
func (x Comparisons) Job(c job.Canonical) (job.Canonical, error) {
	settings := map[string]any{"version": ComparisonsVersion, "votes": x.Votes.String()}
	if x.Folds > 0 {
		settings["folds"], settings["fold"] = x.Folds, x.Fold
	}
	return c.Wrap(comparisonsProtocol, settings)
}

// Run computes the run c under the protocol on the given number of
// threads; it has the signature of runner/execute's EvalFunc.
func (x Comparisons) Run(ctx context.Context, c job.Config, threads int) (*job.Outcome, error) {
	if err := x.Check(); err != nil {
		return nil, err
	}
	info, alg, err := algorithm(c)
	switch {
	case err != nil:
		return nil, err
	case info.Active:
		return nil, fmt.Errorf("%s is an active method: it asks about points, and %s is a dataset of comparisons", info.Name, c.Dataset)
	case c.N != 0 || c.DataDim != 0 || c.PCA != 0 || c.Noise != "":
		return nil, fmt.Errorf("n, data_dim, pca and noise do not apply to %s, a dataset of comparisons", c.Dataset)
	}
	setup := time.Now()
	cmp, err := loadComparisons(c.Dataset)
	if err != nil {
		return nil, err
	}
	train, test := cmp.Triplets(cmp.Train, x.Votes), cmp.Triplets(cmp.Test, datasets.EachVote)
	if x.Folds > 0 {
		folds, err := triplets.Folds(train, x.Folds, triplets.ByQuery, seedOf(c, comparisonsSeeds, "folds"))
		if err != nil {
			return nil, err
		}
		train, test = folds[x.Fold].Train, folds[x.Fold].Test
	}
	setupSecs := time.Since(setup).Seconds()
	res, err := alg.Fit(ctx, embed.Problem{Dim: c.Dim, Train: train}, embed.Options{Seed: seedOf(c, comparisonsSeeds, "fit"),
		MaxEpochs: c.MaxEpochs, LearningRate: c.LearningRate, BatchSize: c.BatchSize, Threads: threads, Backend: embed.Backend(c.Backend),
		Optimizer: embed.Optimizer(c.Optimizer)})
	if err != nil {
		return nil, err
	}
	evalStart := time.Now()
	out, err := fitted(c, res, train.N, setupSecs, threads)
	if err != nil {
		return nil, err
	}
	out.Metrics[job.Triplets] = float64(train.Len())
	out.Metrics[job.TrainError] = metrics.TripletError(res.Embedding, train)
	out.Metrics[job.TestError] = metrics.TripletError(res.Embedding, test)
	out.Metrics[job.MajorityTestError] = metrics.MajorityError(res.Embedding, test)
	out.Metrics[job.EvalSeconds] = time.Since(evalStart).Seconds()
	return out, nil
}

// comparisonsCache holds each dataset of comparisons once loaded: the runs
// of an experiment share it (material: 0.2 s a load, 25,801 queries).
var comparisonsCache sync.Map // name → *loadedComparisons

type loadedComparisons struct {
	once sync.Once
	c    *datasets.Comparisons
	err  error
}

func loadComparisons(name string) (*datasets.Comparisons, error) {
	v, _ := comparisonsCache.LoadOrStore(name, &loadedComparisons{})
	l := v.(*loadedComparisons)
	l.once.Do(func() { l.c, l.err = datasets.LoadComparisons(name) })
	if l.err != nil {
		comparisonsCache.CompareAndDelete(name, l) // the next run tries again
	}
	return l.c, l.err
}
