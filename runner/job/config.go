package job

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

// EvalVersion is the version of the evaluation protocol (how a run is set up
// and measured). Bump it when a change alters any stored result; every cache
// key changes with it.
const EvalVersion = 1

// DefaultTestTriplets is the paper's number of fresh noiseless triplets on
// which the test triplet error is measured.
const DefaultTestTriplets = 10_000

// Backends a run's config holds after Normalize: the canonical names of
// lib/embed. A config may also say "gpu" (an alias of cuda) or "auto"
// (cuda where the algorithm and this machine support it, else cpu);
// Normalize resolves both, so that the cache key and the runs table name
// the backend that actually runs. A cpu run's key is the same as before
// cuda existed: its canonical JSON is unchanged.
const (
	CPU  = string(embed.BackendCPU)
	CUDA = string(embed.BackendCUDA)
)

// Config is one run. Zero values mean "the default" where a field says so.
type Config struct {
	// Dataset is the name the data is loaded by (lib/datasets).
	Dataset string `json:"dataset"`
	// StandsInFor names the dataset of the paper this one replaces because it
	// is not available here ("" when the paper's own dataset is used).
	StandsInFor string `json:"stands_in_for,omitempty"`
	// N is the number of items subsampled from the dataset (0: all of it).
	N int `json:"n"`
	// DataDim is the dimension of synthetic data (0: the dataset's default).
	DataDim int `json:"data_dim"`
	// PCA reduces the data to this many principal components first (0: no).
	PCA int `json:"pca"`
	// Lambda is the triplet multiplier: λ·n·d·log₂n training triplets.
	Lambda float64 `json:"lambda"`
	// Noise is the noise model ("", "bernoulli" or "gaussian") and NoiseLevel
	// its flip probability or standard deviation.
	Noise      string  `json:"noise"`
	NoiseLevel float64 `json:"noise_level"`
	// Algorithm is the registry name (lib/embed) and Params its parameters.
	Algorithm string             `json:"algorithm"`
	Params    map[string]float64 `json:"params"`
	// Dim is the embedding dimension.
	Dim int `json:"dim"`
	// MaxEpochs, LearningRate and BatchSize override the method's defaults
	// when non-zero.
	MaxEpochs    int     `json:"max_epochs"`
	LearningRate float64 `json:"learning_rate"`
	BatchSize    int     `json:"batch_size"`
	// NoStop switches the paper's stopping rule off (see StopRule): the fit
	// runs all its epochs. A run that leaves it false keeps the cache key
	// it had before the field existed.
	NoStop bool `json:"no_stop,omitempty"`
	// TestTriplets is the size of the test set (0: DefaultTestTriplets).
	TestTriplets int `json:"test_triplets"`
	// Seed and Rep together seed every random choice of the run; repetitions
	// of one setting differ in Rep.
	Seed uint64 `json:"seed"`
	Rep  int    `json:"rep"`
	// Backend is CPU (default), CUDA ("gpu" is an alias) or "auto".
	Backend string `json:"backend"`
	// Optimizer is the optimiser of the fit: one of the algorithm's
	// (embed.Info.Optimizers), "" meaning its default. Normalize writes its
	// default as "", so that a run that leaves it empty, or names the
	// default, keeps the cache key it had before the field existed.
	Optimizer string `json:"optimizer,omitempty"`
}

// Canonical is a config in normal form with its cache key.
type Canonical struct {
	// Config is the normalised config: names lower-cased, defaults filled in.
	Config Config
	// JSON is the canonical encoding the key is computed from.
	JSON []byte
	// Version is the algorithm's implementation version.
	Version int
	// Key is the first KeyBytes bytes, in hex, of the SHA-256 of JSON,
	// Version and EvalVersion.
	Key string
	// Active reports whether the algorithm queries an oracle.
	Active bool
}

// Normalize validates c, looks its algorithm up in the registry and returns
// its canonical form. Errors name the offending field and value.
func (c Config) Normalize() (Canonical, error) {
	c.Dataset = strings.ToLower(strings.TrimSpace(c.Dataset))
	c.StandsInFor = strings.ToLower(strings.TrimSpace(c.StandsInFor))
	c.Algorithm = strings.ToLower(strings.TrimSpace(c.Algorithm))
	c.Noise = strings.ToLower(strings.TrimSpace(c.Noise))
	if c.TestTriplets == 0 {
		c.TestTriplets = DefaultTestTriplets
	}
	if c.Noise == "none" {
		c.Noise = ""
	}
	if err := c.check(); err != nil {
		return Canonical{}, err
	}
	info, err := embed.Lookup(c.Algorithm)
	if err != nil {
		return Canonical{}, err
	}
	optimizer, err := info.ResolveOptimizer(c.Optimizer)
	if err != nil {
		return Canonical{}, fmt.Errorf("job: %w", err)
	}
	c.Optimizer = string(optimizer)
	backend, err := info.ResolveBackendFor(c.Backend, optimizer)
	if err != nil {
		return Canonical{}, fmt.Errorf("job: %w", err)
	}
	c.Backend = string(backend)
	params := make(map[string]float64, len(info.Params))
	for k, v := range info.Params {
		params[k] = v
	}
	for k, v := range c.Params {
		if _, ok := info.Params[k]; !ok {
			return Canonical{}, fmt.Errorf("job: %s has no parameter %q", info.Name, k)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Canonical{}, fmt.Errorf("job: %s parameter %s = %v is not finite", info.Name, k, v)
		}
		params[k] = v
	}
	for _, k := range info.LateParams {
		if params[k] == info.Params[k] {
			delete(params, k) // the key the run had before k existed
		}
	}
	c.Params = params
	js := c.canonicalJSON()
	return Canonical{Config: c, JSON: js, Version: info.Version, Key: key(js, info.Version), Active: info.Active}, nil
}

// Wrap returns the canonical config of a run that a protocol builds on c,
// such as runner/evaluate's out-of-sample Extension: its JSON is
// {protocol: settings, "run": c's JSON} (encoding/json, keys sorted) and its
// key hashes that JSON as Normalize hashes a run's, so that it differs from
// c's key and from that of any other protocol or settings. Config, Version
// and Active stay c's.
func (c Canonical) Wrap(protocol string, settings map[string]any) (Canonical, error) {
	wrapped, err := json.Marshal(map[string]any{protocol: settings, "run": json.RawMessage(c.JSON)})
	if err != nil {
		return c, fmt.Errorf("job: %s config: %w", protocol, err)
	}
	c.JSON, c.Key = wrapped, key(wrapped, c.Version)
	return c, nil
}

// KeyBytes is how many bytes of a config's SHA-256 its key keeps: 128 bits
// name a run among any number a campaign could run (two of 10¹² runs share
// a key with probability about 10⁻¹⁵), and the key is stored in every run's
// row and in its index. Keys of 32 bytes (64 digits) before results.db's
// schema version 7 are their prefixes.
const KeyBytes = 16

// key hashes the canonical JSON with the algorithm's and the evaluation's
// versions.
func key(js []byte, version int) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\nalgorithm-version=%d\neval-version=%d\n", js, version, EvalVersion)
	return hex.EncodeToString(h.Sum(nil)[:KeyBytes])
}

func (c Config) check() error {
	switch {
	case c.Dataset == "":
		return fmt.Errorf("job: no dataset")
	case c.Algorithm == "":
		return fmt.Errorf("job: no algorithm")
	case c.N < 0 || c.N == 1 || c.N == 2:
		return fmt.Errorf("job: n = %d: need 0 (all items) or at least 3", c.N)
	case c.Dim < 1:
		return fmt.Errorf("job: embedding dimension = %d, must be ≥ 1", c.Dim)
	case !(c.Lambda > 0) || math.IsInf(c.Lambda, 0):
		return fmt.Errorf("job: triplet multiplier λ = %v, must be finite and > 0", c.Lambda)
	case c.DataDim < 0 || c.PCA < 0 || c.MaxEpochs < 0 || c.BatchSize < 0 || c.TestTriplets < 0 || c.Rep < 0:
		return fmt.Errorf("job: negative data_dim, pca, max_epochs, batch_size, test_triplets or rep in %+v", c)
	case math.IsNaN(c.LearningRate) || math.IsInf(c.LearningRate, 0) || c.LearningRate < 0:
		return fmt.Errorf("job: learning rate = %v, must be finite and ≥ 0", c.LearningRate)
	}
	noise := triplets.Noise{Model: triplets.NoiseModel(c.Noise), Level: c.NoiseLevel}
	if err := noise.Check(); err != nil {
		return fmt.Errorf("job: %w", err)
	}
	if c.Noise == "" && c.NoiseLevel != 0 {
		return fmt.Errorf("job: noise level %v without a noise model", c.NoiseLevel)
	}
	return nil
}

// StopRule returns the stopping rule of the run's fit: the paper's (the
// zero rule, lib/embed's DefaultStopRule), or with NoStop none, with the
// train error measured on the rule's subset after every epoch, so that the
// trace is the paper's per-epoch convergence curve (Section 4.3).
func (c Config) StopRule() embed.StopRule {
	if !c.NoStop {
		return embed.StopRule{}
	}
	return embed.StopRule{Every: 1, Disabled: true}
}

// NoiseModel returns the config's noise as lib/triplets understands it.
func (c Config) NoiseModel() triplets.Noise {
	return triplets.Noise{Model: triplets.NoiseModel(c.Noise), Level: c.NoiseLevel}
}

// canonicalJSON encodes c with sorted keys and numbers in shortest form, so
// that equal configs encode to equal bytes however they were written
// (2 and 2.0, parameters in any order).
func (c Config) canonicalJSON() []byte {
	fields := map[string]any{
		"dataset": c.Dataset, "n": c.N, "data_dim": c.DataDim, "pca": c.PCA,
		"lambda": c.Lambda, "noise": c.Noise, "noise_level": c.NoiseLevel,
		"algorithm": c.Algorithm, "params": c.Params, "dim": c.Dim,
		"max_epochs": c.MaxEpochs, "learning_rate": c.LearningRate, "batch_size": c.BatchSize,
		"test_triplets": c.TestTriplets, "seed": c.Seed, "rep": c.Rep, "backend": c.Backend,
	}
	if c.StandsInFor != "" {
		fields["stands_in_for"] = c.StandsInFor
	}
	if c.NoStop {
		fields["no_stop"] = true
	}
	if c.Optimizer != "" {
		fields["optimizer"] = c.Optimizer
	}
	var b bytes.Buffer
	writeCanonical(&b, fields)
	return b.Bytes()
}

func writeCanonical(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeCanonical(b, v[k])
		}
		b.WriteByte('}')
	case map[string]float64:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = x
		}
		writeCanonical(b, m)
	case string:
		writeString(b, v)
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int:
		b.WriteString(number(float64(v)))
	case uint64:
		b.WriteString(strconv.FormatUint(v, 10))
	case float64:
		b.WriteString(number(v))
	default:
		panic(fmt.Sprintf("job: cannot encode %T canonically", v))
	}
}

func writeString(b *bytes.Buffer, s string) {
	enc, _ := json.Marshal(s) // a string always encodes
	b.Write(enc)
}

// number is the shortest decimal form of v, with -0 written as 0 and
// integers without an exponent (1000000, not 1e+06), so that integer fields
// decode back into Go ints.
func number(v float64) string {
	if v == 0 {
		return "0"
	}
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
