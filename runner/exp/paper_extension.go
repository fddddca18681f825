package exp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/oenn"
	"github.com/oe-lab/oe/lib/triplets"
	"github.com/oe-lab/oe/runner/job"
)

// extensionVersion is the version of the out-of-sample protocol below; it is
// part of every extension run's cache key, so bumping it re-executes them.
const extensionVersion = 1

// Extension declares and executes OENN out-of-sample runs, the paper's
// "Generalization to new items" (appendix): each run's data is split at
// random into a training part and a fraction testFraction of new items;
// OENN_train is fitted on λ·n·d·log₂n triplets of the training items (n the
// training items), as a run declares them; then OENN's extension (the
// trained network frozen, a fresh EmbNet for the new items) is fitted on
// newTriplets triplets (x*, y, z) with x* new and y, z training items.
// Every run's Algorithm must be "oenn".
//
// Besides the usual metrics of the base model on the training items
// (TrainError, TestError on fresh triplets among them, Procrustes, KNNError,
// KNNErrorData, FitSeconds, Epochs, Triplets), a result's Metrics hold:
// "extension_error", the fraction of the newTriplets triplets the
// extension violates (the paper's TE); "extension_test_error", the same on
// 10,000 fresh noiseless triplets of that form; "extension_knn_error" and
// "extension_knn_error_data", the error of classifying each new item by its
// k = ⌊log₂ n⌋ nearest training items in the embedding and in the original
// data; "extension_procrustes" of all items; "extension_seconds",
// "extension_epochs", "extension_items" (new items) and
// "extension_triplets". The stored embedding has the training items' rows
// first, then the new items'.
//
// Runs are cached like Run's, under a key that adds the protocol, its
// version, testFraction and newTriplets to the run's config.
func (e *Experiment) Extension(runs []Run, testFraction float64, newTriplets int) Results {
	if !(testFraction > 0 && testFraction < 1) {
		panic(fmt.Sprintf("exp: Extension: test fraction %v, want it in (0, 1)", testFraction))
	}
	if newTriplets < 1 {
		panic(fmt.Sprintf("exp: Extension: %d new triplets, want ≥ 1", newTriplets))
	}
	var todo []declared
	for _, r := range runs {
		if r.Algorithm != "oenn" {
			panic(fmt.Sprintf("exp: Extension needs algorithm oenn, run declares %q", r.Algorithm))
		}
		if !Registered(r.Algorithm) {
			e.Note("Algorithm oenn is not registered in this build; the out-of-sample runs were skipped.")
			return nil
		}
		used, ok := e.resolve(r)
		if !ok {
			e.Note(fmt.Sprintf("Dataset %s is not available here and has no stand-in; its out-of-sample runs were skipped.", r.Dataset))
			continue
		}
		c, err := r.config(used).Normalize()
		if err != nil {
			panic(fmt.Errorf("exp: run %+v: %w", r, err))
		}
		if c, err = extensionJob(c, testFraction, newTriplets); err != nil {
			panic(err)
		}
		todo = append(todo, declared{r, used, c})
	}
	ctx := context.Background()
	if !e.s.ReportOnly {
		jobs := make([]job.Canonical, len(todo))
		for i, d := range todo {
			jobs[i] = d.job
		}
		x := *e.s.Exec
		x.Eval = extensionEval(testFraction, newTriplets)
		sum, err := x.Execute(ctx, jobs)
		e.count(sum)
		if err != nil {
			panic(fmt.Errorf("exp: executing out-of-sample runs: %w", err))
		}
	}
	return e.collect(ctx, todo, "out-of-sample runs")
}

// extensionJob turns a run's canonical config into the extension run's: the
// config JSON wrapped with the protocol's settings, and its key.
func extensionJob(c job.Canonical, testFraction float64, newTriplets int) (job.Canonical, error) {
	wrapped, err := json.Marshal(map[string]any{
		"oenn_extension": map[string]any{"version": extensionVersion, "test_fraction": testFraction, "new_triplets": newTriplets},
		"run":            json.RawMessage(c.JSON),
	})
	if err != nil {
		return c, fmt.Errorf("exp: extension config: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\nalgorithm-version=%d\neval-version=%d\n", wrapped, c.Version, job.EvalVersion)
	c.JSON, c.Key = wrapped, hex.EncodeToString(h.Sum(nil))
	return c, nil
}

// extensionSeed derives the seed of one purpose of a run.
func extensionSeed(c job.Config, purpose string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "oenn-extension/%d/%d/%s/%s", c.Seed, c.Rep, c.StandsInFor, purpose)
	return h.Sum64()
}

// extensionEval computes one out-of-sample run.
func extensionEval(testFraction float64, newTriplets int) func(ctx context.Context, c job.Config, threads int) (*job.Outcome, error) {
	return func(ctx context.Context, c job.Config, threads int) (*job.Outcome, error) {
		ds, err := datasets.Load(c.Dataset, datasets.Options{N: c.N, Dim: c.DataDim, PCA: c.PCA, Seed: extensionSeed(c, "data")})
		if err != nil {
			return nil, err
		}
		n, _ := ds.X.Dims()
		nNew := int(math.Round(testFraction * float64(n)))
		nTrain := n - nNew
		if nNew < 1 || nTrain < 3 {
			return nil, fmt.Errorf("%d items split %d/%d: need ≥ 3 training items and ≥ 1 new item", n, nTrain, nNew)
		}
		// Rows 0..nTrain-1 of all are the training items, the rest the new
		// ones: the order of the extension's embedding.
		all, labels := splitRows(ds.X, ds.Labels, nNew, extensionSeed(c, "split"))
		train := all.Slice(0, nTrain, 0, all.RawMatrix().Cols).(*mat.Dense)
		var trainLabels []int
		if labels != nil {
			trainLabels = labels[:nTrain]
		}
		noise := c.NoiseModel()
		m := triplets.Count(c.Lambda, nTrain, c.Dim)
		set, err := triplets.Random(train, m, noise, extensionSeed(c, "train"), threads)
		if err != nil {
			return nil, err
		}
		alg, err := embed.New(c.Algorithm, c.Params)
		if err != nil {
			return nil, err
		}
		trained, ok := alg.(interface{ Model() *oenn.Model })
		if !ok {
			return nil, fmt.Errorf("%s has no trained model to extend", c.Algorithm)
		}
		opt := embed.Options{Seed: extensionSeed(c, "fit"), MaxEpochs: c.MaxEpochs, LearningRate: c.LearningRate, BatchSize: c.BatchSize, Threads: threads}
		base, err := alg.Fit(ctx, embed.Problem{N: nTrain, Dim: c.Dim, Train: set}, opt)
		if err != nil {
			return nil, err
		}
		fresh, err := newItemTriplets(all, nTrain, newTriplets, noise, extensionSeed(c, "new"))
		if err != nil {
			return nil, err
		}
		opt.Seed = extensionSeed(c, "extend")
		ext, err := trained.Model().Extend(ctx, fresh, opt)
		if err != nil {
			return nil, err
		}
		out := &job.Outcome{
			Metrics: map[string]float64{
				job.FitSeconds: base.Elapsed.Seconds(), job.ConvergeSeconds: base.TimeToConverge.Seconds(),
				job.Epochs: float64(base.Epochs), job.Triplets: float64(m), job.Items: float64(nTrain),
				job.DataDim: float64(all.RawMatrix().Cols), job.TrainError: metrics.TripletError(base.Embedding, set),
				"extension_seconds": ext.Elapsed.Seconds(), "extension_epochs": float64(ext.Epochs),
				"extension_items": float64(nNew), "extension_triplets": float64(fresh.Len()),
				"extension_error": metrics.TripletError(ext.Embedding, fresh),
			},
			Trace: base.Trace, StopReason: base.StopReason, Embedding: ext.Embedding, Labels: labels, Threads: threads,
		}
		start := time.Now()
		if err := baseMetrics(out.Metrics, train, trainLabels, base.Embedding, c, threads); err != nil {
			return nil, err
		}
		if err := newItemMetrics(out.Metrics, all, labels, nTrain, ext.Embedding, c); err != nil {
			return nil, err
		}
		out.Metrics[job.EvalSeconds] = time.Since(start).Seconds()
		return out, nil
	}
}

// baseMetrics measures OENN_train on the training items as runner/evaluate
// measures any run.
func baseMetrics(m map[string]float64, x *mat.Dense, labels []int, emb *mat.Dense, c job.Config, threads int) error {
	test, err := triplets.Random(x, c.TestTriplets, triplets.Noise{}, extensionSeed(c, "test"), threads)
	if err != nil {
		return err
	}
	m[job.TestError] = metrics.TripletError(emb, test)
	if m[job.Procrustes], err = metrics.Procrustes(x, emb); err != nil {
		return fmt.Errorf("procrustes: %w", err)
	}
	if labels != nil {
		if m[job.KNNError], err = metrics.KNNError(emb, labels, extensionSeed(c, "knn")); err != nil {
			return fmt.Errorf("kNN error: %w", err)
		}
		if m[job.KNNErrorData], err = metrics.KNNError(x, labels, extensionSeed(c, "knn")); err != nil {
			return fmt.Errorf("kNN error on the data: %w", err)
		}
	}
	return nil
}

// newItemMetrics measures the extension: fresh triplets of the trained form,
// Procrustes of all items, and how well the training items' labels predict
// the new items' in the embedding and in the data.
func newItemMetrics(m map[string]float64, all *mat.Dense, labels []int, nTrain int, emb *mat.Dense, c job.Config) error {
	test, err := newItemTriplets(all, nTrain, c.TestTriplets, triplets.Noise{}, extensionSeed(c, "new-test"))
	if err != nil {
		return err
	}
	m["extension_test_error"] = metrics.TripletError(emb, test)
	if m["extension_procrustes"], err = metrics.Procrustes(all, emb); err != nil {
		return fmt.Errorf("procrustes of all items: %w", err)
	}
	if labels != nil {
		m["extension_knn_error"] = crossKNNError(emb, labels, nTrain)
		m["extension_knn_error_data"] = crossKNNError(all, labels, nTrain)
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

// newItemTriplets draws m triplets (x*, y, z) over the rows of all: x* one
// of the new items (rows ≥ nTrain), y and z distinct training items, in the
// order the (noisy) distances give, as the paper's T*.
func newItemTriplets(all *mat.Dense, nTrain, m int, noise triplets.Noise, seed uint64) (*triplets.Set, error) {
	n, _ := all.Dims()
	if nTrain < 2 || nTrain >= n {
		return nil, fmt.Errorf("new-item triplets need ≥ 2 training items and ≥ 1 new item, have %d and %d", nTrain, n-nTrain)
	}
	rng := rand.New(rand.NewPCG(seed, 0x7e57))
	raw := all.RawMatrix()
	set := triplets.NewSet(n, m)
	for t := 0; t < m; t++ {
		i := nTrain + rng.IntN(n-nTrain)
		j := rng.IntN(nTrain)
		k := rng.IntN(nTrain - 1)
		if k >= j {
			k++
		}
		if triplets.Closer(raw, i, j, k, noise, rng) {
			set.Append(int32(i), int32(j), int32(k))
		} else {
			set.Append(int32(i), int32(k), int32(j))
		}
	}
	return set, nil
}

// crossKNNError classifies each row ≥ nTrain of x by a majority vote of its
// k = ⌊log₂ nTrain⌋ nearest rows below nTrain (ties in the vote go to the
// smallest label, as in lib/metrics) and returns the fraction misclassified.
func crossKNNError(x *mat.Dense, labels []int, nTrain int) float64 {
	n, _ := x.Dims()
	k := max(1, int(math.Log2(float64(nTrain))))
	type cand struct {
		d float64
		i int
	}
	cands := make([]cand, nTrain)
	wrong := 0
	for q := nTrain; q < n; q++ {
		xq := x.RawRowView(q)
		for i := 0; i < nTrain; i++ {
			var d float64
			for c, v := range x.RawRowView(i) {
				diff := v - xq[c]
				d += diff * diff
			}
			cands[i] = cand{d, i}
		}
		slices.SortFunc(cands, func(a, b cand) int {
			if a.d != b.d {
				if a.d < b.d {
					return -1
				}
				return 1
			}
			return a.i - b.i
		})
		votes := map[int]int{}
		for _, c := range cands[:min(k, nTrain)] {
			votes[labels[c.i]]++
		}
		best, bestVotes := 0, -1
		for l, v := range votes {
			if v > bestVotes || (v == bestVotes && l < best) {
				best, bestVotes = l, v
			}
		}
		if best != labels[q] {
			wrong++
		}
	}
	return float64(wrong) / float64(n-nTrain)
}

// ExtensionViews adds the paper's figure of an out-of-sample run: one t-SNE
// view (perplexity 30) of all items' embeddings, drawn as two panels, the
// training items embedded by OENN_train and the new items embedded by the
// extension, coloured by class.
func (e *Experiment) ExtensionViews(title string, r Result) {
	nNew := int(r.Metrics["extension_items"])
	if r.Status != OK || r.embedding == nil || nNew < 1 {
		e.Note(fmt.Sprintf("No figure %q: the out-of-sample run (%s) is %s or its embedding was not stored.", title, r.Field("dataset"), r.Status))
		return
	}
	y := r.embedding
	if _, d := y.Dims(); d > 2 {
		var err error
		if y, err = tsneView(y); err != nil {
			e.Note(fmt.Sprintf("No figure %q: t-SNE failed: %v.", title, err))
			return
		}
	}
	n, _ := y.Dims()
	nTrain := n - nNew
	trainPts := y.Slice(0, nTrain, 0, 2).(*mat.Dense)
	newPts := y.Slice(nTrain, n, 0, 2).(*mat.Dense)
	var trainLab, newLab []int
	if r.labels != nil {
		trainLab, newLab = r.labels[:nTrain], r.labels[nTrain:]
	}
	p := newGridPlot(title)
	box := bounds(y)
	if err := addPanelIn(p, trainPts, trainLab, 0, -1, box); err != nil {
		e.Note(fmt.Sprintf("No figure %q: %v.", title, err))
		return
	}
	if err := addPanelIn(p, newPts, newLab, 1, -1, box); err != nil {
		e.Note(fmt.Sprintf("No figure %q: %v.", title, err))
		return
	}
	addFrames(p, 1, 2)
	addGridLabels(p, []string{""}, []string{fmt.Sprintf("training items (OENN_train), TE %.3f", r.Metrics[TrainError]),
		fmt.Sprintf("new items (extension), TE %.3f", r.Metrics["extension_error"])}, "", "")
	caption := fmt.Sprintf("Out-of-sample extension on %s, d = %d: t-SNE view (perplexity 30) of the %d training items (left) and the %d new items (right), one common map, coloured by class (labels are not used for training).",
		r.Field("dataset"), r.Run.Dim, nTrain, nNew)
	e.figure(title, strings.TrimSpace(caption), p, nil)
	last := e.doc.Sections[len(e.doc.Sections)-1].Figure
	last.Width, last.Height = 8, 4.4
}
