package job

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/embed"
)

// errNoDevice is the fake algorithms' CUDA probe answer on "this machine".
var errNoDevice = errors.New("test: no CUDA device")

func init() {
	notRunnable := func(embed.Params) (embed.Algorithm, error) { return nil, errors.New("not runnable") }
	embed.Register(embed.Info{Name: "jobfake", Version: 2, Params: embed.Params{"mu": 0.1, "rho": 2}, New: notRunnable,
		Backends:   map[embed.Backend]func() error{embed.BackendCUDA: func() error { return errNoDevice }},
		Optimizers: []embed.Optimizer{embed.OptimizerAdam, embed.OptimizerLBFGS}})
	embed.Register(embed.Info{Name: "jobgpu", Version: 1, Params: embed.Params{}, New: notRunnable,
		Backends: map[embed.Backend]func() error{embed.BackendCUDA: func() error { return nil }}})
	embed.Register(embed.Info{Name: "jobcpu", Version: 1, Params: embed.Params{}, New: notRunnable})
	embed.Register(embed.Info{Name: "joblate", Version: 1, Params: embed.Params{"mu": 0.1, "variant": 0}, LateParams: []string{"variant"}, New: notRunnable})
}

func base() Config {
	return Config{Dataset: "char", N: 500, Lambda: 2, Algorithm: "jobfake", Dim: 30, Seed: 7}
}

func TestKeyIgnoresSpelling(t *testing.T) {
	ref := mustKey(t, base())
	same := []struct {
		name string
		edit func(*Config)
	}{
		{"names in upper case", func(c *Config) { c.Dataset, c.Algorithm = "CHAR", "JobFake" }},
		{"explicit default parameter", func(c *Config) { c.Params = map[string]float64{"mu": 0.1} }},
		{"explicit default backend and test size", func(c *Config) { c.Backend, c.TestTriplets = "cpu", 10000 }},
		{"noise spelled none", func(c *Config) { c.Noise = "none" }},
		{"auto without a working device", func(c *Config) { c.Backend = "auto" }},
		{"λ as 2.0", func(c *Config) { c.Lambda = 4.0 / 2 }},
	}
	for _, tc := range same {
		t.Run(tc.name, func(t *testing.T) {
			c := base()
			tc.edit(&c)
			if k := mustKey(t, c); k != ref {
				t.Errorf("key changed: %s vs %s", k, ref)
			}
		})
	}
	differ := []struct {
		name string
		edit func(*Config)
	}{
		{"seed", func(c *Config) { c.Seed++ }},
		{"repetition", func(c *Config) { c.Rep = 1 }},
		{"parameter", func(c *Config) { c.Params = map[string]float64{"mu": 0.2} }},
		{"λ", func(c *Config) { c.Lambda = 2.5 }},
		{"noise", func(c *Config) { c.Noise, c.NoiseLevel = "bernoulli", 0.1 }},
		{"backend", func(c *Config) { c.Backend = "gpu" }},
		{"stand-in", func(c *Config) { c.StandsInFor = "mnist" }},
		{"no stopping rule", func(c *Config) { c.NoStop = true }},
	}
	for _, tc := range differ {
		t.Run(tc.name, func(t *testing.T) {
			c := base()
			tc.edit(&c)
			if k := mustKey(t, c); k == ref {
				t.Errorf("key unchanged")
			}
		})
	}
}

// TestCPUKeyUnchanged pins a cpu run's key to its value before the cuda
// backend existed, so that results.db's cpu runs keep hitting the cache.
func TestCPUKeyUnchanged(t *testing.T) {
	const want = "ab182a7759574c7291d73d9894eadbb5"
	for _, b := range []string{"", "cpu", " CPU "} {
		c := base()
		c.Backend = b
		if k := mustKey(t, c); k != want {
			t.Errorf("backend %q: key %s, want %s", b, k, want)
		}
	}
}

// TestNoStop checks that a config leaving NoStop unset keeps the key it had
// before the field existed (TestCPUKeyUnchanged's), that NoStop is in the
// canonical JSON only when set and decodes back, and the rule each gives.
func TestNoStop(t *testing.T) {
	const before = "ab182a7759574c7291d73d9894eadbb5"
	tests := []struct {
		name   string
		noStop bool
		json   string // what the canonical JSON contains, or "!" and what it must not
		rule   embed.StopRule
	}{
		{"unset: the paper's rule, the old key", false, `!no_stop`, embed.StopRule{}},
		{"set: no rule, a check after every epoch", true, `"no_stop":true`, embed.StopRule{Every: 1, Disabled: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := base()
			c.NoStop = tc.noStop
			n, err := c.Normalize()
			if err != nil {
				t.Fatal(err)
			}
			if (n.Key == before) == tc.noStop {
				t.Errorf("key %s; the key before NoStop existed is %s", n.Key, before)
			}
			if absent, ok := strings.CutPrefix(tc.json, "!"); ok == strings.Contains(string(n.JSON), absent) {
				t.Errorf("canonical JSON %s: want %q", n.JSON, tc.json)
			}
			var back Config
			if err := json.Unmarshal(n.JSON, &back); err != nil || back.NoStop != tc.noStop {
				t.Errorf("decoded NoStop = %v (%v), want %v", back.NoStop, err, tc.noStop)
			}
			if got := c.StopRule(); got != tc.rule {
				t.Errorf("StopRule() = %+v, want %+v", got, tc.rule)
			}
		})
	}
}

// TestOptimizer checks that a config leaving Optimizer unset, or naming the
// method's default, keeps the key it had before the field existed
// (TestCPUKeyUnchanged's), that another optimiser is in the canonical JSON
// and the key, and the errors: an optimiser the method lacks, an unknown
// one, and L-BFGS on cuda (auto goes to the CPU).
func TestOptimizer(t *testing.T) {
	const before = "ab182a7759574c7291d73d9894eadbb5"
	tests := []struct {
		name, algorithm, optimizer, backend string
		want                                string // canonical optimiser, or "error: " and part of the message
		sameKey                             bool
	}{
		{"unset", "jobfake", "", "", "", true},
		{"the default named", "jobfake", " Adam", "", "", true},
		{"L-BFGS", "jobfake", "lbfgs", "", "lbfgs", false},
		{"L-BFGS, auto goes to the CPU", "jobfake", "lbfgs", "auto", "lbfgs", false},
		{"L-BFGS on cuda", "jobfake", "lbfgs", "cuda", "error: CPU only", false},
		{"an optimiser the method lacks", "jobcpu", "adam", "", `error: jobcpu has no optimizer "adam"`, false},
		{"unknown", "jobfake", "sgd", "", `error: unknown optimizer "sgd", want adam or lbfgs`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := base()
			c.Algorithm, c.Optimizer, c.Backend = tc.algorithm, tc.optimizer, tc.backend
			n, ok := normalizeOrError(t, c, tc.want)
			if !ok {
				return
			}
			if n.Config.Optimizer != tc.want || n.Config.Backend != "cpu" {
				t.Errorf("optimizer %q, backend %q normalised to %q, %q; want %q on cpu", tc.optimizer, tc.backend, n.Config.Optimizer, n.Config.Backend, tc.want)
			}
			if (n.Key == before) != tc.sameKey || strings.Contains(string(n.JSON), `"optimizer"`) == tc.sameKey {
				t.Errorf("key %s, JSON %s; same key as before the field wanted: %v", n.Key, n.JSON, tc.sameKey)
			}
		})
	}
}

// normalizeOrError normalises c. When want is "error: " and part of a
// message it checks that Normalize fails with it and returns false;
// otherwise that Normalize succeeds.
func normalizeOrError(t *testing.T, c Config, want string) (Canonical, bool) {
	t.Helper()
	n, err := c.Normalize()
	if msg, ok := strings.CutPrefix(want, "error: "); ok {
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Fatalf("error = %v, want it to contain %q", err, msg)
		}
		return n, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return n, true
}

// TestLateParams checks that a parameter added after runs were cached
// (embed.Info.LateParams) keeps their keys at its default and enters the key
// when set to anything else.
func TestLateParams(t *testing.T) {
	before := base()
	before.Algorithm = "joblate"
	ref, err := before.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(ref.JSON), "variant") || !strings.Contains(string(ref.JSON), `"params":{"mu":0.1}`) {
		t.Fatalf("canonical JSON %s: want the params without the late one at its default", ref.JSON)
	}
	tests := []struct {
		name    string
		params  map[string]float64
		sameKey bool
	}{
		{"left out", nil, true},
		{"set to its default", map[string]float64{"variant": 0}, true},
		{"set to another value", map[string]float64{"variant": 1}, false},
		{"another parameter set", map[string]float64{"mu": 0.2}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := before
			c.Params = tc.params
			if k := mustKey(t, c); (k == ref.Key) != tc.sameKey {
				t.Errorf("key %s, the late parameter's default gives %s; same wanted: %v", k, ref.Key, tc.sameKey)
			}
		})
	}
}

func TestBackendNormalisation(t *testing.T) {
	tests := []struct {
		algorithm, backend string
		want               string // canonical backend, or "error: " and part of the message
	}{
		{"jobfake", "", "cpu"},
		{"jobfake", "CPU", "cpu"},
		{"jobfake", "cuda", "cuda"},
		{"jobfake", " GPU ", "cuda"},
		{"jobfake", "auto", "cpu"},
		{"jobgpu", "auto", "cuda"},
		{"jobcpu", "auto", "cpu"},
		{"jobcpu", "cuda", "error: not supported on cuda"},
		{"jobcpu", "gpu", "error: not supported on cuda"},
		{"jobfake", "tpu", `error: unknown backend "tpu"`},
	}
	for _, tc := range tests {
		t.Run(tc.algorithm+"/"+tc.backend, func(t *testing.T) {
			c := base()
			c.Algorithm, c.Backend, c.Params = tc.algorithm, tc.backend, nil
			n, ok := normalizeOrError(t, c, tc.want)
			if !ok {
				return
			}
			if n.Config.Backend != tc.want || !strings.Contains(string(n.JSON), `"backend":"`+tc.want+`"`) {
				t.Errorf("backend %q normalised to %q (%s), want %q", tc.backend, n.Config.Backend, n.JSON, tc.want)
			}
		})
	}
	gpu, cuda := base(), base()
	gpu.Backend, cuda.Backend = "gpu", "cuda"
	if mustKey(t, gpu) != mustKey(t, cuda) {
		t.Error("gpu and cuda runs have different keys")
	}
}

func TestCanonicalJSONDecodes(t *testing.T) {
	c := base()
	c.N, c.TestTriplets, c.Lambda, c.NoiseLevel, c.Noise = 1_000_000, 2_000_000, 0.5, 1e-7, "gaussian"
	n, err := c.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	var back Config
	if err := json.Unmarshal(n.JSON, &back); err != nil {
		t.Fatalf("%s: %v", n.JSON, err)
	}
	if back.N != c.N || back.TestTriplets != c.TestTriplets || back.Lambda != 0.5 || back.NoiseLevel != 1e-7 {
		t.Errorf("decoded %+v from %s", back, n.JSON)
	}
}

func TestKeyDependsOnVersions(t *testing.T) {
	js := base().canonicalJSON()
	if key(js, 1) == key(js, 2) {
		t.Error("algorithm version does not change the key")
	}
}

func TestNormalizeRejectsBadConfigs(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no dataset", func(c *Config) { c.Dataset = "" }, "no dataset"},
		{"unknown algorithm", func(c *Config) { c.Algorithm = "nope" }, `unknown algorithm "nope"`},
		{"unknown parameter", func(c *Config) { c.Params = map[string]float64{"eta": 1} }, `no parameter "eta"`},
		{"zero λ", func(c *Config) { c.Lambda = 0 }, "λ = 0"},
		{"n = 2", func(c *Config) { c.N = 2 }, "n = 2"},
		{"no dimension", func(c *Config) { c.Dim = 0 }, "dimension = 0"},
		{"bad noise", func(c *Config) { c.Noise = "laplace" }, "unknown noise model"},
		{"level without model", func(c *Config) { c.NoiseLevel = 0.1 }, "without a noise model"},
		{"flip probability > 1", func(c *Config) { c.Noise, c.NoiseLevel = "bernoulli", 2 }, "[0,1]"},
		{"bad backend", func(c *Config) { c.Backend = "tpu" }, `backend "tpu"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := base()
			tc.edit(&c)
			_, err := c.Normalize()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func mustKey(t *testing.T, c Config) string {
	t.Helper()
	n, err := c.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	return n.Key
}

// The canonical JSON has sorted keys, shortest numbers and the defaults of
// the algorithm's parameters filled in.
func ExampleConfig_Normalize() {
	c, err := Config{Dataset: "Uniform", N: 100, Lambda: 2.0, Algorithm: "jobfake", Dim: 2, Seed: 1}.Normalize()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(c.JSON))
	fmt.Println(len(c.Key), c.Version)
	// Output:
	// {"algorithm":"jobfake","backend":"cpu","batch_size":0,"data_dim":0,"dataset":"uniform","dim":2,"lambda":2,"learning_rate":0,"max_epochs":0,"n":100,"noise":"","noise_level":0,"params":{"mu":0.1,"rho":2},"pca":0,"rep":0,"seed":1,"test_triplets":10000}
	// 32 2
}

func TestWrap(t *testing.T) {
	// The canonical JSON of an OENN run on 100 CHAR items (algorithm
	// version 2), and the key exp's extensionJob gave its out-of-sample run
	// before the protocol moved to runner/evaluate (commit 686a5de): Wrap
	// must keep the stored runs' keys.
	run := Canonical{Version: 2, JSON: []byte(`{"algorithm":"oenn","backend":"cpu","batch_size":0,"data_dim":0,"dataset":"char","dim":5,"lambda":2,"learning_rate":0,"max_epochs":0,"n":100,"noise":"","noise_level":0,"params":{"input":0,"inputlen":0,"width":0},"pca":0,"rep":0,"seed":1,"test_triplets":10000}`)}
	run.Key = key(run.JSON, run.Version)
	settings := map[string]any{"version": 1, "test_fraction": 0.2, "new_triplets": 2000}
	tests := []struct {
		name     string
		protocol string
		settings map[string]any
		want     string // "" when only its difference from the others counts
	}{
		{"stored extension run", "oenn_extension", settings, "d926c8488b464f58800b1de770ac32aa"},
		{"other settings", "oenn_extension", map[string]any{"version": 1, "test_fraction": 0.25, "new_triplets": 2000}, ""},
		{"other protocol", "other", settings, ""},
	}
	seen := map[string]string{run.Key: "the run itself"}
	for _, tc := range tests {
		c, err := run.Wrap(tc.protocol, tc.settings)
		if err != nil {
			t.Fatal(err)
		}
		if tc.want != "" && c.Key != tc.want {
			t.Errorf("%s: key %s, want %s (EvalVersion %d)", tc.name, c.Key, tc.want, EvalVersion)
		}
		if other, dup := seen[c.Key]; dup {
			t.Errorf("%s: same key as %s", tc.name, other)
		}
		seen[c.Key] = tc.name
		if again, _ := run.Wrap(tc.protocol, tc.settings); again.Key != c.Key {
			t.Errorf("%s: key not deterministic", tc.name)
		}
	}
	if _, err := run.Wrap("x", map[string]any{"bad": math.NaN()}); err == nil || !strings.HasPrefix(err.Error(), "job: x config") {
		t.Errorf("NaN setting: error %v", err)
	}
}
