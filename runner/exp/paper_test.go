package exp

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/triplets"
	"github.com/oe-lab/oe/runner/job"
)

func TestExtensionJobKeys(t *testing.T) {
	base, err := Run{Dataset: "char", N: 100, Dim: 5, Algorithm: "oenn", Seed: 1}.config("char").Normalize()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		fraction float64
		m        int
	}{
		{"paper's CHAR split", 0.2, 2000},
		{"other fraction", 0.25, 2000},
		{"other triplet count", 0.2, 4000},
	}
	seen := map[string]string{base.Key: "the plain run"}
	for _, tc := range tests {
		c, err := extensionJob(base, tc.fraction, tc.m)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := extensionJob(base, tc.fraction, tc.m)
		if c.Key != again.Key {
			t.Errorf("%s: key not deterministic", tc.name)
		}
		if other, dup := seen[c.Key]; dup {
			t.Errorf("%s: same key as %s", tc.name, other)
		}
		seen[c.Key] = tc.name
	}
}

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

func TestNewItemTriplets(t *testing.T) {
	x := mat.NewDense(8, 1, []float64{0, 1, 2, 3, 4, 5, 2.4, 9})
	const nTrain = 6
	s, err := newItemTriplets(x, nTrain, 500, triplets.Noise{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 500 || s.N != 8 {
		t.Fatalf("got %d triplets over %d items", s.Len(), s.N)
	}
	for r := 0; r < s.Len(); r++ {
		i, j, k := s.At(r)
		if i < nTrain || j >= nTrain || k >= nTrain || j == k {
			t.Fatalf("triplet %d (%d, %d, %d) is not (new, train, train)", r, i, j, k)
		}
		if math.Abs(x.At(int(i), 0)-x.At(int(j), 0)) > math.Abs(x.At(int(i), 0)-x.At(int(k), 0)) {
			t.Fatalf("triplet %d (%d, %d, %d) is in the wrong order", r, i, j, k)
		}
	}
	if _, err := newItemTriplets(x, 8, 10, triplets.Noise{}, 3); err == nil {
		t.Error("no new items: no error")
	}
}

func TestCrossKNNError(t *testing.T) {
	// Training items at 0, 1 (class 0) and 10, 11 (class 1); k = ⌊log₂ 4⌋ = 2.
	x := mat.NewDense(7, 1, []float64{0, 1, 10, 11, 0.5, 10.5, 9})
	tests := []struct {
		name   string
		labels []int
		want   float64
	}{
		{"all right", []int{0, 0, 1, 1, 0, 1, 1}, 0},
		{"one wrong", []int{0, 0, 1, 1, 0, 1, 0}, 1.0 / 3},
		{"all wrong", []int{0, 0, 1, 1, 1, 0, 0}, 1},
	}
	for _, tc := range tests {
		if got := crossKNNError(x, tc.labels, 4); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestExtensionEval(t *testing.T) {
	c := job.Config{Dataset: "gmm", N: 40, Lambda: 2, Algorithm: "oenn", Dim: 2, MaxEpochs: 5, TestTriplets: 500, Seed: 1}
	out, err := extensionEval(0.25, 400)(context.Background(), c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r, d := out.Embedding.Dims(); r != 40 || d != 2 || len(out.Labels) != 40 {
		t.Errorf("embedding %d×%d with %d labels, want 40×2 with 40", r, d, len(out.Labels))
	}
	want := map[string]float64{"items": 30, "extension_items": 10, "extension_triplets": 400}
	for name, v := range want {
		if out.Metrics[name] != v {
			t.Errorf("%s = %v, want %v", name, out.Metrics[name], v)
		}
	}
	for _, name := range []string{job.TrainError, job.TestError, "extension_error", "extension_test_error", "extension_knn_error", "extension_procrustes"} {
		if v, ok := out.Metrics[name]; !ok || v < 0 || v > 1 {
			t.Errorf("%s = %v (present %v), want a fraction", name, v, ok)
		}
	}
	again, err := extensionEval(0.25, 400)(context.Background(), c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if again.Metrics["extension_error"] != out.Metrics["extension_error"] || !mat.Equal(again.Embedding, out.Embedding) {
		t.Error("same config and seed gave a different result")
	}
}

func TestAxisValues(t *testing.T) {
	rs := Results{
		{Run: Run{Algorithm: "oenn", N: 64, Params: map[string]float64{"width": 40}}},
		{Run: Run{Algorithm: "oenn", N: 16, Params: map[string]float64{"width": 5}}},
		{Run: Run{Algorithm: "oenn", N: 128, Params: map[string]float64{"width": 10}}},
		{Run: Run{Algorithm: "oenn", N: 16, Params: map[string]float64{"width": 40}}},
	}
	tests := []struct {
		axis string
		want []string
	}{
		{"n", []string{"16", "64", "128"}},
		{"param:width", []string{"5", "10", "40"}},
		{"algorithm", []string{"oenn"}},
	}
	for _, tc := range tests {
		got := axisValues(rs, tc.axis)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.axis, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: %v, want %v", tc.axis, got, tc.want)
				break
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("an unset parameter did not panic")
		}
	}()
	axisValue(rs[0], "param:input")
}

func TestEveryKth(t *testing.T) {
	x := mat.NewDense(10, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	y, lab := everyKth(x, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 4)
	want := []float64{0, 2, 5, 7}
	for i, w := range want {
		if y.At(i, 0) != w || lab[i] != int(w) {
			t.Errorf("row %d = %v (label %d), want %v", i, y.At(i, 0), lab[i], w)
		}
	}
}
