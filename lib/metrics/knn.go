package metrics

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/parallel"
)

// KNNError returns the k-nearest-neighbour classification error of the points x (one row per item) with the
// given labels: the fraction of test points whose predicted label is wrong, after a 70/30 split, k = ⌊log n⌋, seeded.
//
// Choices, following the authors' evaluation code (evaluate-OE, knn_classification_error), which uses
// scikit-learn's KNeighborsClassifier:
//   - k = ⌊log₂ n⌋ with n the number of all points (the code computes int(np.log2(n)); the paper's
//     "⌊log n⌋" does not name the base).
//   - The first ⌊0.7·n⌋ items of a permutation drawn from seed form the training set, the rest the test
//     set, as train_test_split(train_size=0.7) sizes them.
//   - Euclidean distance; among training points at equal distance the one earlier in the permutation is
//     nearer, so the result depends on seed only.
//   - Majority vote of the k neighbours with uniform weights; a tie in votes goes to the smallest label, as
//     scikit-learn's mode does.
//
// Distances come from ‖q‖² + ‖t‖² − 2q·t with blocked matrix products, which is several times faster
// than subtracting coordinates; it can reorder neighbours whose distances agree to about 1e-16 of the
// squared norms, which does not matter for an error rate.
//
// KNNError panics if len(labels) ≠ rows of x (see the package comment). Errors: fewer than 2 points (no
// split leaves both a training and a test point), and NaN, Inf or overflowing entries.
func KNNError(x *mat.Dense, labels []int, seed uint64) (float64, error) {
	n, _ := x.Dims()
	if len(labels) != n {
		panic(fmt.Sprintf(rowMismatch, "KNNError", "x", n, "labels", len(labels)))
	}
	if n < 2 {
		return 0, fmt.Errorf("metrics: KNNError: need at least 2 points for a 70/30 split, have %d", n)
	}
	if err := checkFinite("KNNError", x); err != nil {
		return 0, err
	}
	train, test := splitIndices(n, seed)
	k := neighbourCount(n)
	trainX, trainY := gatherRows(x, labels, train)
	testX, testY := gatherRows(x, labels, test)
	return errorRate(knnPredict(trainX, trainY, testX, k), testY), nil
}

// neighbourCount returns k = ⌊log₂ n⌋, exactly (no floating-point log): the
// one k rule of KNNError and CrossKNNError. For n ≥ 2 it is at least 1 and
// at most ⌊0.7·n⌋, KNNError's training set size.
func neighbourCount(n int) int {
	return bits.Len(uint(n)) - 1
}

// errorRate returns the fraction of predictions that differ from want.
func errorRate(pred, want []int) float64 {
	wrong := 0
	for t, p := range pred {
		if p != want[t] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(want))
}

// splitIndices returns the training and test items of the seeded 70/30 split.
func splitIndices(n int, seed uint64) (train, test []int) {
	perm := rand.New(rand.NewPCG(seed, 0x6b6e6e73706c6974)).Perm(n)
	nTrain := 7 * n / 10
	return perm[:nTrain], perm[nTrain:]
}

// checkFinite rejects NaN and Inf entries, naming the first, and points so
// large that their squared distances overflow; fn names the caller.
func checkFinite(fn string, x *mat.Dense) error {
	n, _ := x.Dims()
	for i := range n {
		var sq float64
		for c, v := range x.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("metrics: %s: point %d has %v in column %d", fn, i, v, c)
			}
			sq += v * v
		}
		if sq > math.MaxFloat64/8 {
			return fmt.Errorf("metrics: %s: point %d is too large for squared distances (‖x‖² = %g)", fn, i, sq)
		}
	}
	return nil
}

// gatherRows copies the rows and labels of the listed items into a packed
// matrix and label slice.
func gatherRows(x *mat.Dense, labels []int, items []int) (blas64.General, []int) {
	_, d := x.Dims()
	g := blas64.General{Rows: len(items), Cols: d, Stride: d, Data: make([]float64, len(items)*d)}
	y := make([]int, len(items))
	for r, i := range items {
		copy(g.Data[r*d:r*d+d], x.RawRowView(i))
		y[r] = labels[i]
	}
	return g, y
}

// Block sizes of the distance computation: a test block against a training
// block is a testBlock × trainBlock matrix of 2 MB, which stays in cache
// while its neighbours are picked out.
const (
	testBlock  = 128
	trainBlock = 2048
)

// knnPredict returns the majority label of the k nearest training points of
// every test point (k ≥ 1, k ≤ train.Rows), see KNNError for the tie rules.
func knnPredict(train blas64.General, trainY []int, test blas64.General, k int) []int {
	trainSq := rowSquares(train)
	testSq := rowSquares(test)
	pred := make([]int, test.Rows)
	type scratch struct {
		prod  []float64
		nb    *neighbours
		votes []int
	}
	blocks := parallel.Chunks(test.Rows, testBlock)
	newScratch := func() scratch {
		return scratch{prod: make([]float64, testBlock*trainBlock), nb: newNeighbours(testBlock, k), votes: make([]int, k)}
	}
	parallel.ForWith(0, blocks, newScratch, func(work scratch, b int) {
		q0, q1 := parallel.Chunk(b, testBlock, test.Rows)
		prod, nb := work.prod, work.nb
		nb.reset(q1 - q0)
		for t0 := 0; t0 < train.Rows; t0 += trainBlock {
			t1 := min(t0+trainBlock, train.Rows)
			qs := sub(test, q0, q1)
			ts := sub(train, t0, t1)
			c := blas64.General{Rows: q1 - q0, Cols: t1 - t0, Stride: t1 - t0, Data: prod[:(q1-q0)*(t1-t0)]}
			blas64.Gemm(blas.NoTrans, blas.Trans, 1, qs, ts, 0, c)
			for q := range c.Rows {
				row := c.Data[q*c.Stride : q*c.Stride+c.Cols]
				qq, bound := testSq[q0+q], nb.bound(q)
				for t, dot := range row {
					if d := qq + trainSq[t0+t] - 2*dot; d < bound {
						bound = nb.offer(q, d, int32(t0+t))
					}
				}
			}
		}
		for q := range q1 - q0 {
			pred[q0+q] = vote(nb.of(q), trainY, work.votes)
		}
	})
	return pred
}

// sub returns rows [from, to) of g.
func sub(g blas64.General, from, to int) blas64.General {
	return blas64.General{Rows: to - from, Cols: g.Cols, Stride: g.Stride, Data: g.Data[from*g.Stride : (to-1)*g.Stride+g.Cols]}
}

// rowSquares returns ‖row‖² for every row of g.
func rowSquares(g blas64.General) []float64 {
	out := make([]float64, g.Rows)
	for r := range out {
		for _, v := range g.Data[r*g.Stride : r*g.Stride+g.Cols] {
			out[r] += v * v
		}
	}
	return out
}

// neighbours keeps, for each of a block of test points, the k nearest
// training points offered so far, sorted by distance.
type neighbours struct {
	k    int
	dist []float64 // k per test point
	idx  []int32
	size []int
}

func newNeighbours(points, k int) *neighbours {
	return &neighbours{k: k, dist: make([]float64, points*k), idx: make([]int32, points*k), size: make([]int, points)}
}

func (nb *neighbours) reset(points int) {
	clear(nb.size[:points])
}

// bound returns the distance a training point must undercut to become a
// neighbour of test point q: +Inf until k points are held.
func (nb *neighbours) bound(q int) float64 {
	if nb.size[q] < nb.k {
		return math.Inf(1)
	}
	return nb.dist[(q+1)*nb.k-1]
}

// offer inserts training point t at squared distance d < bound(q) among the
// neighbours of test point q and returns the new bound. Offers come in
// increasing t and only a strictly nearer point displaces a held one, so
// the earlier point wins ties.
func (nb *neighbours) offer(q int, d float64, t int32) float64 {
	dist := nb.dist[q*nb.k : (q+1)*nb.k]
	idx := nb.idx[q*nb.k : (q+1)*nb.k]
	n := nb.size[q]
	if n == nb.k {
		n-- // the farthest drops out
	} else {
		nb.size[q]++
	}
	p := n
	for p > 0 && d < dist[p-1] {
		dist[p], idx[p] = dist[p-1], idx[p-1]
		p--
	}
	dist[p], idx[p] = d, t
	return nb.bound(q)
}

// of returns the training indices of the neighbours of test point q.
func (nb *neighbours) of(q int) []int32 {
	return nb.idx[q*nb.k : q*nb.k+nb.size[q]]
}

// vote returns the most frequent label among the neighbours, the smallest
// label on a tie. scratch must hold len(nbrs) labels.
func vote(nbrs []int32, trainY []int, scratch []int) int {
	labels := scratch[:len(nbrs)]
	for i, t := range nbrs {
		labels[i] = trainY[t]
	}
	slices.Sort(labels)
	best, bestCount := labels[0], 0
	for i := 0; i < len(labels); {
		j := i
		for j < len(labels) && labels[j] == labels[i] {
			j++
		}
		if j-i > bestCount {
			best, bestCount = labels[i], j-i
		}
		i = j
	}
	return best
}
