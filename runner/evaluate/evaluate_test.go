package evaluate

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	_ "github.com/oe-lab/oe/lib/algorithms"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
	"github.com/oe-lab/oe/runner/job"
)

func config(dataset string) job.Config {
	return job.Config{Dataset: dataset, N: 40, Dim: 2, Lambda: 2, Algorithm: "soe", MaxEpochs: 20, Seed: 3, TestTriplets: 2000, Backend: job.CPU}
}

func TestRunMeasuresEverything(t *testing.T) {
	tests := []struct {
		dataset  string
		labelled bool
	}{
		{"uniform", false},
		{"gmm", true},
	}
	for _, tc := range tests {
		t.Run(tc.dataset, func(t *testing.T) {
			out, err := New().Run(context.Background(), config(tc.dataset), 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []string{job.TrainError, job.TestError, job.Procrustes} {
				if v, ok := out.Metrics[m]; !ok || v < 0 || v > 1 {
					t.Errorf("%s = %v (present %v), want in [0, 1]", m, v, ok)
				}
			}
			if got, want := out.Metrics[job.Triplets], float64(triplets.Count(2, 40, 2)); got != want {
				t.Errorf("triplets = %v, want %v", got, want)
			}
			if out.Metrics[job.Items] != 40 || out.Metrics[job.Epochs] < 1 || out.StopReason == "" {
				t.Errorf("items %v, epochs %v, stop %q", out.Metrics[job.Items], out.Metrics[job.Epochs], out.StopReason)
			}
			_, hasKNN := out.Metrics[job.KNNError]
			_, hasKNNData := out.Metrics[job.KNNErrorData]
			if hasKNN != tc.labelled || hasKNNData != tc.labelled || (out.Labels != nil) != tc.labelled {
				t.Errorf("kNN metrics %v/%v, labels %v; labelled dataset: %v", hasKNN, hasKNNData, out.Labels != nil, tc.labelled)
			}
		})
	}
}

// TestRunNoStop checks the stopping rule of a run: the paper's stops a
// small problem well before the cap and measures the train error every 50
// epochs; NoStop runs every epoch and measures it after each.
func TestRunNoStop(t *testing.T) {
	for _, alg := range []string{"soe", "gnmds", "oenn"} {
		for _, noStop := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/no_stop=%v", alg, noStop), func(t *testing.T) {
				c := config("uniform")
				c.Algorithm, c.MaxEpochs, c.NoStop = alg, 400, noStop
				out, err := New().Run(context.Background(), c, 1)
				if err != nil {
					t.Fatal(err)
				}
				checked := 0
				for _, e := range out.Trace {
					if !math.IsNaN(e.TrainError) {
						checked++
					}
				}
				epochs := len(out.Trace)
				switch {
				case noStop && (epochs != 400 || out.StopReason != string(embed.StopMaxEpochs) || checked != 400):
					t.Errorf("%d epochs (%s), %d checked; want all 400, each checked", epochs, out.StopReason, checked)
				case !noStop && (epochs >= 400 || out.StopReason != string(embed.StopConverged) || checked != epochs/50):
					t.Errorf("%d epochs (%s), %d checked; want converged before 400, a check every 50 epochs", epochs, out.StopReason, checked)
				}
			})
		}
	}
}

func TestRunIsDeterministic(t *testing.T) {
	a, err := New().Run(context.Background(), config("uniform"), 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New().Run(context.Background(), config("uniform"), 1)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(a.Embedding, b.Embedding) || a.Metrics[job.TestError] != b.Metrics[job.TestError] {
		t.Error("same config and seed gave different results")
	}
	c := config("uniform")
	c.Rep = 1
	d, err := New().Run(context.Background(), c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if mat.Equal(a.Embedding, d.Embedding) {
		t.Error("another repetition gave the same embedding")
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(*job.Config)
		want string
	}{
		{"cuda for a CPU-only method", func(c *job.Config) { c.Algorithm, c.Backend = "gnmds", job.CUDA }, "not supported on cuda"},
		{"unknown backend", func(c *job.Config) { c.Backend = "tpu" }, `unknown backend "tpu"`},
		{"unknown dataset", func(c *job.Config) { c.Dataset = "nope" }, `unknown dataset "nope"`},
		{"unknown algorithm", func(c *job.Config) { c.Algorithm = "nope" }, `unknown algorithm "nope"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := config("uniform")
			tc.edit(&c)
			_, err := New().Run(context.Background(), c, 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestRunCUDAUnavailable asks for cuda where it cannot run: the error says
// why (no CUDA in the build, or no device), before any data is loaded.
func TestRunCUDAUnavailable(t *testing.T) {
	info, err := embed.Lookup("soe")
	if err != nil {
		t.Fatal(err)
	}
	if info.Available(embed.BackendCUDA) == nil {
		t.Skip("CUDA works here; the unavailable path cannot be exercised")
	}
	for _, b := range []string{"cuda", "gpu"} {
		c := config("no-such-dataset")
		c.Backend = b
		_, err := New().Run(context.Background(), c, 1)
		if err == nil || !strings.Contains(err.Error(), "soe on cuda") {
			t.Fatalf("backend %s: error = %v, want it to name soe on cuda", b, err)
		}
	}
}

func ExampleEvaluator_Run() {
	out, err := New().Run(context.Background(), job.Config{Dataset: "uniform", N: 30, Dim: 2, Lambda: 2,
		Algorithm: "soe", MaxEpochs: 10, Seed: 1, TestTriplets: 1000}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Metrics[job.Items], out.Metrics[job.Triplets])
	// Output: 30 589
}

// TestRunGivesTheFitItsCheckpoint: the checkpoint the context carries
// (job.WithCheckpoint, set by the executor) reaches the fit: an OENN run
// writes its state there, and reads it when evaluated again (a file of
// another run is refused, naming it).
func TestRunGivesTheFitItsCheckpoint(t *testing.T) {
	c := config("uniform")
	c.Algorithm, c.MaxEpochs = "oenn", 4
	path := filepath.Join(t.TempDir(), "run.ckpt")
	ctx := job.WithCheckpoint(context.Background(), &embed.Checkpoint{Path: path, ID: "key", Every: time.Nanosecond})
	if _, err := New().Run(ctx, c, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the fit wrote no checkpoint: %v", err)
	}
	other := job.WithCheckpoint(context.Background(), &embed.Checkpoint{Path: path, ID: "another key"})
	if _, err := New().Run(other, c, 1); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("evaluated with another run's checkpoint: err %v, want one naming %s", err, path)
	}
}
