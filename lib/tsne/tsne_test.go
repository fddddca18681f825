package tsne

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestEmbedSeparatesClusters(t *testing.T) {
	x, labels := gaussianClusters(3, 150, 10, 6, 71)
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"barnes-hut", Options{Perplexity: 15, Seed: 1}},
		{"exact", Options{Perplexity: 15, Seed: 1, Exact: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			y, err := Embed(x, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if r, c := y.Dims(); r != 150 || c != 2 {
				t.Fatalf("embedding is %d×%d, want 150×2", r, c)
			}
			if p := knnPurity(y, labels, 10); p < 0.95 {
				t.Errorf("10-NN label purity %.3f, want ≥ 0.95", p)
			}
			// Spread: the clusters must be apart, not merely labelled apart
			// by a tiny margin; compare centroid gaps with cluster radii.
			if ratio := separation(y, labels, 3); ratio < 2 {
				t.Errorf("closest centroid gap is %.2f× the largest cluster radius, want ≥ 2", ratio)
			}
		})
	}
}

// separation is the smallest distance between two cluster centroids divided
// by the largest root-mean-square distance of a cluster's points to its
// centroid.
func separation(y *mat.Dense, labels []int, k int) float64 {
	cx, cy, cnt := make([]float64, k), make([]float64, k), make([]float64, k)
	for i, l := range labels {
		cx[l] += y.At(i, 0)
		cy[l] += y.At(i, 1)
		cnt[l]++
	}
	for l := range cx {
		cx[l] /= cnt[l]
		cy[l] /= cnt[l]
	}
	radius := make([]float64, k)
	for i, l := range labels {
		radius[l] += (math.Pow(y.At(i, 0)-cx[l], 2) + math.Pow(y.At(i, 1)-cy[l], 2)) / cnt[l]
	}
	maxRadius := 0.0
	for _, r := range radius {
		maxRadius = max(maxRadius, math.Sqrt(r))
	}
	gap := math.Inf(1)
	for a := 0; a < k; a++ {
		for b := a + 1; b < k; b++ {
			gap = min(gap, math.Hypot(cx[a]-cx[b], cy[a]-cy[b]))
		}
	}
	return gap / maxRadius
}

func TestEmbedDeterministic(t *testing.T) {
	x, _ := gaussianClusters(3, 120, 8, 4, 81)
	run := func(seed uint64, threads int) *mat.Dense {
		t.Helper()
		y, err := Embed(x, Options{Perplexity: 10, Iterations: 300, Seed: seed, Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		return y
	}
	base := run(7, 1)
	if again := run(7, 1); !mat.Equal(base, again) {
		t.Errorf("same seed and threads gave different embeddings")
	}
	for _, threads := range []int{2, 3, 7} {
		if parallel := run(7, threads); !mat.Equal(base, parallel) {
			t.Errorf("%d threads changed the embedding of 1 thread", threads)
		}
	}
	if other := run(8, 1); mat.EqualApprox(base, other, 1e-6) {
		t.Errorf("seeds 7 and 8 gave the same embedding")
	}
}

func TestEmbedRejectsBadInput(t *testing.T) {
	good, _ := gaussianClusters(2, 40, 3, 3, 91)
	withValue := func(v float64) *mat.Dense {
		x := mat.DenseCopyOf(good)
		x.Set(4, 2, v)
		return x
	}
	for _, tc := range []struct {
		name string
		x    *mat.Dense
		opt  Options
		want string
	}{
		{"nil input", nil, Options{}, "no input points"},
		{"NaN", withValue(math.NaN()), Options{Perplexity: 5}, "x[4,2] is NaN"},
		{"infinity", withValue(math.Inf(-1)), Options{Perplexity: 5}, "x[4,2] is -Inf"},
		{"default perplexity too large", good, Options{}, "perplexity 30 needs more than"},
		{"perplexity too large", good, Options{Perplexity: 14}, "have 40"},
		{"perplexity below 1", good, Options{Perplexity: 0.5}, "perplexity 0.5"},
		{"NaN perplexity", good, Options{Perplexity: math.NaN()}, "perplexity NaN"},
		{"negative theta", good, Options{Perplexity: 5, Theta: -0.1}, "theta -0.1"},
		{"negative iterations", good, Options{Perplexity: 5, Iterations: -1}, "iteration count -1"},
		{"negative learning rate", good, Options{Perplexity: 5, LearningRate: -3}, "learning rate -3"},
		{"exact too large", mat.NewDense(MaxExactPoints+1, 1, nil), Options{Perplexity: 5, Exact: true}, "exact mode takes at most"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			y, err := Embed(tc.x, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got (%v, %v), want an error containing %q", y, err, tc.want)
			}
		})
	}
}

func TestEmbedReportsDivergence(t *testing.T) {
	x, _ := gaussianClusters(2, 40, 3, 3, 95)
	// A learning rate this large overflows the coordinates within a few steps.
	_, err := Embed(x, Options{Perplexity: 5, LearningRate: 1e308, Iterations: 50})
	if err == nil || !strings.Contains(err.Error(), "diverged") {
		t.Fatalf("got error %v, want a divergence error", err)
	}
}

func TestEmbedHandlesDuplicatePoints(t *testing.T) {
	x, labels := gaussianClusters(2, 60, 5, 6, 97)
	// Make every point of the first cluster identical.
	for i, l := range labels {
		if l == 0 {
			x.SetRow(i, x.RawRowView(0))
		}
	}
	y, err := Embed(x, Options{Perplexity: 8, Iterations: 400, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if p := knnPurity(y, labels, 5); p < 0.95 {
		t.Errorf("5-NN purity %.3f with a collapsed cluster, want ≥ 0.95", p)
	}
}
