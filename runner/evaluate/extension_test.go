package evaluate

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/job"
)

func TestSplitRows(t *testing.T) {
	x := mat.NewDense(10, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	labels := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, nNew := range []int{1, 3, 9} {
		out, lab := splitRows(x, labels, nNew, 7)
		seen := map[float64]bool{}
		for r := 0; r < 10; r++ {
			v := out.At(r, 0)
			if seen[v] {
				t.Fatalf("nNew %d: row %v twice", nNew, v)
			}
			seen[v] = true
			if lab[r] != int(v) {
				t.Errorf("nNew %d: row %d has label %d for value %v", nNew, r, lab[r], v)
			}
		}
		for _, part := range [][2]int{{0, 10 - nNew}, {10 - nNew, 10}} {
			for r := part[0] + 1; r < part[1]; r++ {
				if out.At(r, 0) < out.At(r-1, 0) {
					t.Errorf("nNew %d: part %v not in original order", nNew, part)
				}
			}
		}
	}
}

func extensionConfig() job.Config {
	return job.Config{Dataset: "gmm", N: 40, Lambda: 2, Algorithm: "oenn", Dim: 2, MaxEpochs: 5, TestTriplets: 500, Seed: 1}
}

func TestExtensionRun(t *testing.T) {
	x := Extension{TestFraction: 0.25, NewTriplets: 400}
	out, err := x.Run(context.Background(), extensionConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if r, d := out.Embedding.Dims(); r != 40 || d != 2 || len(out.Labels) != 40 {
		t.Errorf("embedding %d×%d with %d labels, want 40×2 with 40", r, d, len(out.Labels))
	}
	counts := map[string]float64{job.Items: 30, job.ExtensionItems: 10, job.ExtensionTriplets: 400}
	for name, v := range counts {
		if out.Metrics[name] != v {
			t.Errorf("%s = %v, want %v", name, out.Metrics[name], v)
		}
	}
	for _, name := range []string{job.TrainError, job.TestError, job.KNNError, job.ExtensionError, job.ExtensionTestError,
		job.ExtensionKNNError, job.ExtensionKNNErrorData, job.ExtensionProcrustes} {
		if v, ok := out.Metrics[name]; !ok || v < 0 || v > 1 {
			t.Errorf("%s = %v (present %v), want a fraction", name, v, ok)
		}
	}
	again, err := x.Run(context.Background(), extensionConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if again.Metrics[job.ExtensionError] != out.Metrics[job.ExtensionError] || !mat.Equal(again.Embedding, out.Embedding) {
		t.Error("same config and seed gave a different result")
	}
}

// TestExtensionGivesTheBaseFitItsCheckpoint: the checkpoint the context
// carries (job.WithCheckpoint) reaches the base fit, which writes its state
// there, and not the extension (whose fit would refuse the base fit's
// file); a run evaluated again goes on from the file to the result of a run
// without one, bit for bit.
func TestExtensionGivesTheBaseFitItsCheckpoint(t *testing.T) {
	x := Extension{TestFraction: 0.25, NewTriplets: 400}
	plain, err := x.Run(context.Background(), extensionConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.ckpt")
	ctx := job.WithCheckpoint(context.Background(), &embed.Checkpoint{Path: path, ID: "key", Every: time.Nanosecond})
	for _, pass := range []string{"first", "resumed"} {
		out, err := x.Run(ctx, extensionConfig(), 1)
		if err != nil {
			t.Fatalf("%s: %v", pass, err)
		}
		h, ok, err := embed.ReadCheckpoint(path, nil)
		if err != nil || !ok || h.Epochs < 1 {
			t.Fatalf("%s: the base fit's checkpoint holds %+v (%v, %v), want its epochs", pass, h, ok, err)
		}
		for _, name := range []string{job.TrainError, job.Epochs, job.ExtensionError, job.ExtensionTestError} {
			if out.Metrics[name] != plain.Metrics[name] {
				t.Errorf("%s: %s = %v, want %v as without a checkpoint", pass, name, out.Metrics[name], plain.Metrics[name])
			}
		}
		if !mat.Equal(out.Embedding, plain.Embedding) {
			t.Errorf("%s: the embedding differs from the run's without a checkpoint", pass)
		}
	}
}

func TestExtensionErrors(t *testing.T) {
	tests := []struct {
		name string
		x    Extension
		edit func(*job.Config)
		want string
	}{
		{"fraction 0", Extension{0, 10}, nil, "test fraction 0, want it in (0, 1)"},
		{"fraction 1", Extension{1, 10}, nil, "test fraction 1"},
		{"no triplets", Extension{0.2, 0}, nil, "0 new triplets"},
		{"too few items", Extension{0.2, 10}, func(c *job.Config) { c.N = 3 }, "3 items split 2/1: need ≥ 3 training items"},
		{"not OENN", Extension{0.2, 10}, func(c *job.Config) { c.Algorithm = "soe" }, "soe has no trained model to extend"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := extensionConfig()
			if tc.edit != nil {
				tc.edit(&c)
			}
			_, err := tc.x.Run(context.Background(), c, 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestExtensionJob(t *testing.T) {
	run, err := extensionConfig().Normalize()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		x    Extension
	}{
		{"paper's CHAR split", Extension{0.2, 2000}},
		{"other fraction", Extension{0.25, 2000}},
		{"other triplet count", Extension{0.2, 4000}},
	}
	seen := map[string]string{run.Key: "the plain run"}
	for _, tc := range tests {
		c, err := tc.x.Job(run)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := run.Wrap("oenn_extension", map[string]any{"version": ExtensionVersion, "test_fraction": tc.x.TestFraction, "new_triplets": tc.x.NewTriplets})
		if c.Key != want.Key {
			t.Errorf("%s: key %s, want the wrapped config's %s", tc.name, c.Key, want.Key)
		}
		if other, dup := seen[c.Key]; dup {
			t.Errorf("%s: same key as %s", tc.name, other)
		}
		seen[c.Key] = tc.name
	}
}

func ExampleExtension_Run() {
	x := Extension{TestFraction: 0.25, NewTriplets: 400}
	out, err := x.Run(context.Background(), job.Config{Dataset: "gmm", N: 40, Lambda: 2, Algorithm: "oenn", Dim: 2,
		MaxEpochs: 5, TestTriplets: 500, Seed: 1}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Metrics[job.Items], "training items,", out.Metrics[job.ExtensionItems], "new items,",
		out.Metrics[job.ExtensionTriplets], "extension triplets")
	// Output: 30 training items, 10 new items, 400 extension triplets
}

// TestExtensionDatasetSplit checks when the protocol takes a dataset's own
// train and test sets (USPS: 7,291 and 2,007 of 9,298) and that the choice is
// part of the run's key.
func TestExtensionDatasetSplit(t *testing.T) {
	uspsFraction := 2007.0 / 9298
	for _, tc := range []struct {
		name     string
		dataset  string
		n        int
		fraction float64
		want     bool
	}{
		{"USPS, every item, its test set held out", "usps", 9298, uspsFraction, true},
		{"USPS, another fraction", "usps", 9298, 0.2, false},
		{"USPS, its train set only", "usps", 7291, uspsFraction, false},
		{"CHAR has no split", "char", 1797, 0.2, false},
		{"a synthetic set has no split", "gmm", 9298, uspsFraction, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := Extension{TestFraction: tc.fraction, NewTriplets: 100}
			c := job.Config{Dataset: tc.dataset, N: tc.n, Lambda: 2, Algorithm: "oenn", Dim: 5, Seed: 1}
			if got := x.datasetSplit(c); got != tc.want {
				t.Fatalf("datasetSplit = %v, want %v", got, tc.want)
			}
			canon, err := c.Normalize()
			if err != nil {
				t.Fatal(err)
			}
			wrapped, err := x.Job(canon)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(wrapped.JSON), `"split":"dataset"`); got != tc.want {
				t.Errorf("config %s: names the dataset split: %v, want %v", wrapped.JSON, got, tc.want)
			}
		})
	}
}
