package exp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/job"
)

// DefaultLambda is the paper's triplet multiplier, used when Run.Lambda is 0.
const DefaultLambda = 2

// NoiseModel is how a run's training triplets are corrupted (lib/triplets):
// NoNoise, Bernoulli or Gaussian, with Run.NoiseLevel.
type NoiseModel = triplets.NoiseModel

// Noise models for Run.Noise.
const (
	NoNoise   = triplets.NoNoise   // every triplet as the data says
	Bernoulli = triplets.Bernoulli // flip each triplet with probability NoiseLevel
	Gaussian  = triplets.Gaussian  // add N(0, NoiseLevel²) to both distances
)

// Keep says what the results database keeps of a run's embedding
// (Run.KeepEmbedding).
type Keep = execute.Keep

// What a run keeps of its embedding, for Run.KeepEmbedding.
const (
	KeepNone = execute.KeepNone // its metrics and trace only
	KeepView = execute.KeepView // the 2-D view its figures draw
	KeepFull = execute.KeepFull // the whole embedding, for a later computation
)

// Run declares one run. Zero fields take the paper's defaults where noted.
// The store keeps each run as its script declared it (experiment_runs,
// JSON with the field names below), from which Section reads it back.
type Run struct {
	// Dataset is the dataset's name (lib/datasets), e.g. "char", "mnist".
	Dataset string `json:"dataset"`
	// StandIn is the dataset used instead when Dataset's files are missing
	// (e.g. "fmnist" for "mnist"); the report says so. Empty: skip the run.
	StandIn string `json:"stand_in,omitempty"`
	// N is the number of items, a seeded subsample (0: the paper's size).
	N int `json:"n,omitempty"`
	// DataDim is the dimension of synthetic data (uniform, gmm; 0: 2).
	DataDim int `json:"data_dim,omitempty"`
	// PCA projects the data onto that many principal components (0: no).
	PCA int `json:"pca,omitempty"`
	// Lambda is the triplet multiplier λ: λ·n·d·log₂n triplets (0: 2).
	Lambda float64 `json:"lambda,omitempty"`
	// Noise is NoNoise (""), Bernoulli or Gaussian, with NoiseLevel.
	Noise      NoiseModel `json:"noise,omitempty"`
	NoiseLevel float64    `json:"noise_level,omitempty"`
	// Algorithm is the method's registry name ("soe", "ste", ...) and
	// Params its hyper-parameters (nil: its defaults).
	Algorithm string             `json:"algorithm"`
	Params    map[string]float64 `json:"params,omitempty"`
	// Dim is the embedding dimension d.
	Dim int `json:"dim"`
	// MaxEpochs, LearningRate and BatchSize override the method's defaults.
	MaxEpochs    int     `json:"max_epochs,omitempty"`
	LearningRate float64 `json:"learning_rate,omitempty"`
	BatchSize    int     `json:"batch_size,omitempty"`
	// NoStop switches the paper's stopping rule off: the fit runs all its
	// epochs (MaxEpochs, or the method's default) and measures the train
	// error after every epoch, so that Result.Trace is the paper's
	// convergence curve (Section 4.3; see Curves).
	NoStop bool `json:"no_stop,omitempty"`
	// Seed and Rep seed the run; Repeat sets Rep.
	Seed uint64 `json:"seed,omitempty"`
	Rep  int    `json:"rep,omitempty"`
	// Backend is "cpu" (default) or "gpu".
	Backend string `json:"backend,omitempty"`
	// Optimizer is the fit's optimiser, one the algorithm takes (oerun
	// algorithms lists them): "" for its default (Adam, or its own),
	// "lbfgs" for L-BFGS on the full batch.
	Optimizer string `json:"optimizer,omitempty"`
	// KeepEmbedding says what the store keeps of the run's embedding
	// besides its metrics and the train error at the stopping rule's checks:
	// nothing (KeepNone); the 2-D view that the figures drawing it
	// (EmbeddingGrid, TSNE, Scatter, ExtensionViews) show, computed once
	// when the run is stored (KeepView: at most MaxViewPoints of the items, the
	// embedding itself when d ≤ 2, else its t-SNE view); or the whole
	// embedding, for a computation that needs it later (KeepFull). Either
	// is stored up to oerun's --max-embedding values (runner/store says how
	// it is encoded). It is no part of the run's config: the cache key is
	// the same either way, and a run stored without its embedding is not
	// executed again for one. Declarations stored before views, as true,
	// read as KeepFull.
	KeepEmbedding Keep `json:"keep_embedding,omitempty"`
}

// declaration is the run as the store keeps it (see Run).
func (r Run) declaration() string {
	b, err := json.Marshal(r)
	if err != nil {
		panic(fmt.Errorf("exp: run %+v: %w", r, err)) // only a NaN or Inf number gets here
	}
	return string(b)
}

// Repeat returns reps copies of every run, with Rep = 0 … reps-1. Only the
// first copy of a run keeps its embedding or view (KeepEmbedding): a figure
// draws one repetition, the first.
func Repeat(runs []Run, reps int) []Run {
	if reps < 1 {
		panic(fmt.Sprintf("exp: Repeat with %d repetitions", reps))
	}
	out := make([]Run, 0, len(runs)*reps)
	for _, r := range runs {
		for i := 0; i < reps; i++ {
			r.Rep = i
			out = append(out, r)
			r.KeepEmbedding = KeepNone
		}
	}
	return out
}

// Registered reports whether the algorithm exists in this build.
func Registered(algorithm string) bool {
	_, err := embed.Lookup(algorithm)
	return err == nil
}

// config turns a declared run into a job config, using dataset for the
// data actually loaded.
func (r Run) config(dataset string) job.Config {
	c := job.Config{
		Dataset: dataset, N: r.N, DataDim: r.DataDim, PCA: r.PCA, Lambda: r.Lambda,
		Noise: string(r.Noise), NoiseLevel: r.NoiseLevel, Algorithm: r.Algorithm, Params: r.Params, Dim: r.Dim,
		MaxEpochs: r.MaxEpochs, LearningRate: r.LearningRate, BatchSize: r.BatchSize, NoStop: r.NoStop, Seed: r.Seed, Rep: r.Rep, Backend: r.Backend,
		Optimizer: r.Optimizer,
	}
	if c.Lambda == 0 {
		c.Lambda = DefaultLambda
	}
	if !strings.EqualFold(dataset, r.Dataset) {
		c.StandsInFor = r.Dataset
	}
	return c
}

// availability is what the script learns about a dataset: whether its files
// are all present, and its size.
type availability struct {
	ok        bool
	available int // points in the files (0: synthetic, any number)
	missing   []string
}

// probe checks a dataset's files without reading them. An unknown name is a
// mistake in the script.
func probe(name string) availability {
	spec, err := datasets.Lookup(name)
	if err != nil {
		panic(err)
	}
	if spec.Synthetic {
		return availability{ok: true}
	}
	st, err := datasets.Find(name)
	if err != nil {
		panic(err)
	}
	a := availability{ok: true, available: spec.Available}
	for _, f := range st {
		if f.Source == datasets.Missing {
			a.ok = false
			a.missing = append(a.missing, f.File.Path)
		}
	}
	return a
}
