package metrics

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/internal/testpoints"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

func TestCrossKNNErrorHand(t *testing.T) {
	// Training items at 0, 1 (class 0) and 10, 11 (class 1); k = ⌊log₂ 4⌋ = 2.
	// The test items at 0.5, 10.5 and 9 have both neighbours in one class.
	train := mat.NewDense(4, 1, []float64{0, 1, 10, 11})
	test := mat.NewDense(3, 1, []float64{0.5, 10.5, 9})
	trainLabels := []int{0, 0, 1, 1}
	tests := []struct {
		name       string
		testLabels []int
		want       float64
	}{
		{"all right", []int{0, 1, 1}, 0},
		{"one wrong", []int{0, 1, 0}, 1.0 / 3},
		{"all wrong", []int{1, 0, 0}, 1},
	}
	for _, tc := range tests {
		got, err := CrossKNNError(train, trainLabels, test, tc.testLabels)
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %v (%v), want %v", tc.name, got, err, tc.want)
		}
	}
}

// referenceCrossKNNError is CrossKNNError by the book, with k neighbours:
// exact distances, a stable sort by distance, votes counted in a map.
func referenceCrossKNNError(train *mat.Dense, trainLabels []int, test *mat.Dense, testLabels []int, k int) float64 {
	nTrain, _ := train.Dims()
	nTest, _ := test.Dims()
	wrong := 0
	for q := range nTest {
		order := make([]int, nTrain)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool {
			return floats.Distance(test.RawRowView(q), train.RawRowView(order[a]), 2) < floats.Distance(test.RawRowView(q), train.RawRowView(order[b]), 2)
		})
		votes := map[int]int{}
		for _, i := range order[:k] {
			votes[trainLabels[i]]++
		}
		best, bestVotes := 0, -1
		for label, v := range votes {
			if v > bestVotes || (v == bestVotes && label < best) {
				best, bestVotes = label, v
			}
		}
		if best != testLabels[q] {
			wrong++
		}
	}
	return float64(wrong) / float64(nTest)
}

func TestCrossKNNErrorReference(t *testing.T) {
	// Sign-pattern labels with 10% relabelled, as in TestKNNError; the
	// test points are rows of a larger matrix, as the out-of-sample
	// experiment passes them (a view with a stride).
	x := testpoints.Gaussian(700, 3, 6)
	rng := rand.New(rand.NewPCG(3, 3))
	labels := make([]int, 700)
	for i := range labels {
		if x.At(i, 0) > 0 {
			labels[i]++
		}
		if x.At(i, 2) > 0 {
			labels[i] += 2
		}
		if rng.Float64() < 0.1 {
			labels[i] = rng.IntN(4)
		}
	}
	for _, nTrain := range []int{2, 64, 500} {
		train := x.Slice(0, nTrain, 0, 3).(*mat.Dense)
		test := x.Slice(nTrain, 700, 0, 3).(*mat.Dense)
		got, err := CrossKNNError(train, labels[:nTrain], test, labels[nTrain:])
		if err != nil {
			t.Fatal(err)
		}
		k := int(math.Floor(math.Log2(float64(nTrain))))
		if want := referenceCrossKNNError(train, labels[:nTrain], test, labels[nTrain:], k); got != want {
			t.Errorf("%d training points: CrossKNNError = %v, reference implementation gives %v", nTrain, got, want)
		}
	}
}

func TestCrossKNNErrorErrors(t *testing.T) {
	x := testpoints.Gaussian(6, 2, 1)
	withNaN := mat.DenseCopyOf(x)
	withNaN.Set(2, 0, math.Inf(1))
	labels := make([]int, 6)
	tests := []struct {
		name        string
		train, test *mat.Dense
		trainLabels []int
		testLabels  []int
		want        string
	}{
		{"one training point", testpoints.Gaussian(1, 2, 1), x, labels[:1], labels, "need at least 2 training points, have 1"},
		{"Inf in the test points", x, withNaN, labels, labels, "CrossKNNError: point 2 has +Inf in column 0"},
	}
	for _, tc := range tests {
		_, err := CrossKNNError(tc.train, tc.trainLabels, tc.test, tc.testLabels)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}
