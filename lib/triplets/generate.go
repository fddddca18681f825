package triplets

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/parallel"
)

// chunkSize is the number of triplets one generator task produces. Each chunk
// has its own random stream derived from (seed, chunk number), so the output
// depends on the seed only, not on the number of threads.
const chunkSize = 1 << 16

// batchSize is the number of triplets fillChunk samples before comparing
// them. Sampling a batch first lets warmRows touch all of its rows at once:
// for large data (COVTYPE's points take 250 MB) nearly every row is a cache
// miss, and independent loads overlap in the memory system where a
// row-at-a-time distance loop waits for each miss in turn. This doubled
// throughput at n=581012, d=54; 32 triplets × 3 rows × 54 float64 stay well
// inside L2.
const batchSize = 32

// HeldOutSeed is the seed of the test (held-out) triplets that go with training triplets
// drawn with seed (oerun triplets --test-count): a stream of its own, so
// that they are fresh triplets, not the training ones again.
func HeldOutSeed(seed uint64) uint64 { return seed ^ 0x7e57_0000_0000_0000 }

// Random draws m triplets from the rows of x as the paper does: sample i, j, k
// uniformly (distinct), compare ‖xᵢ−xⱼ‖ with ‖xᵢ−xₖ‖ (under noise, if any), and
// store the triplet in the order that makes i closer to j. Generation runs on
// threads goroutines (0: GOMAXPROCS) and is deterministic for a given seed.
func Random(x *mat.Dense, m int, noise Noise, seed uint64, threads int) (*Set, error) {
	n, _ := x.Dims()
	if n < 3 {
		return nil, fmt.Errorf("triplets: need at least 3 points, have %d", n)
	}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("triplets: %d points exceed the int32 index range", n)
	}
	if m < 0 {
		return nil, fmt.Errorf("triplets: negative triplet count %d", m)
	}
	if err := noise.Check(); err != nil {
		return nil, err
	}
	s := &Set{N: n, Idx: make([]int32, 3*m)}
	raw := x.RawMatrix()
	parallel.ForChunks(threads, m, chunkSize, func(_, from, to int) {
		sink := fillChunk(s.Idx[3*from:3*to], raw, noise, seed, uint64(from/chunkSize))
		warmSink.Store(math.Float64bits(sink))
	})
	return s, nil
}

// fillChunk fills dst with len(dst)/3 triplets drawn from the stream (seed,
// chunk). It returns the sum of the values warmRows read, which the caller
// must consume so that the compiler keeps those loads.
func fillChunk(dst []int32, x blas64.General, noise Noise, seed, chunk uint64) float64 {
	src := rand.NewPCG(seed, chunk^0x9e3779b97f4a7c15)
	// Indices come straight from src (no interface call per draw); noise
	// draws come from rng, a view of the same stream.
	rng := rand.New(src)
	n := uint64(x.Rows)
	var idx [3 * batchSize]int32
	var sink float64
	for len(dst) > 0 {
		b := min(len(dst), len(idx))
		for r := 0; r < b; r += 3 {
			idx[r], idx[r+1], idx[r+2] = distinctTriple(src, n)
		}
		sink += warmRows(x, idx[:b])
		for r := 0; r < b; r += 3 {
			i, j, k := idx[r], idx[r+1], idx[r+2]
			ri := row(x, int(i))
			if !answer(sqDistRows(ri, row(x, int(j))), sqDistRows(ri, row(x, int(k))), noise, rng) {
				j, k = k, j
			}
			dst[r], dst[r+1], dst[r+2] = i, j, k
		}
		dst = dst[b:]
	}
	return sink
}

// warmSink receives the sums of warmRows so that the compiler cannot drop
// its loads as unused.
var warmSink atomic.Uint64

// warmRows reads one value per cache line of every listed row, so that the
// misses of a whole batch are in flight together.
func warmRows(x blas64.General, rows []int32) float64 {
	const lineFloats = 8 // 64-byte cache lines
	var s float64
	for _, v := range rows {
		r := row(x, int(v))
		for c := 0; c < len(r); c += lineFloats {
			s += r[c]
		}
	}
	return s
}

// distinctTriple samples three distinct indices uniformly from [0, n).
func distinctTriple(src *rand.PCG, n uint64) (i, j, k int32) {
	i = int32(below(src, n))
	for j = i; j == i; {
		j = int32(below(src, n))
	}
	for k = i; k == i || k == j; {
		k = int32(below(src, n))
	}
	return i, j, k
}

// below returns a uniform integer in [0, n) by Lemire's multiply-and-reject
// method, the same method math/rand/v2 uses, without its interface call.
func below(src *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), n)
		}
	}
	return hi
}

// Closer answers whether row i of x is closer to row j than to row k, under
// noise. Ties count as closer to j. rng may be nil when noise is NoNoise.
func Closer(x blas64.General, i, j, k int, noise Noise, rng *rand.Rand) bool {
	ri := row(x, i)
	return answer(sqDistRows(ri, row(x, j)), sqDistRows(ri, row(x, k)), noise, rng)
}

// answer decides "closer to j" from the squared distances dij and dik under
// noise. Ties count as closer to j.
func answer(dij, dik float64, noise Noise, rng *rand.Rand) bool {
	switch noise.Model {
	case Gaussian:
		// The paper adds the noise to the distances, not their squares.
		a := math.Sqrt(dij) + noise.Level*rng.NormFloat64()
		b := math.Sqrt(dik) + noise.Level*rng.NormFloat64()
		return a <= b
	case Bernoulli:
		truth := dij <= dik
		if rng.Float64() < noise.Level {
			return !truth
		}
		return truth
	default:
		return dij <= dik
	}
}

// row returns row r of x.
func row(x blas64.General, r int) []float64 {
	return x.Data[r*x.Stride : r*x.Stride+x.Cols]
}

// sqDistRows returns ‖a−b‖². Four accumulators break the dependency chain
// of a single running sum, which otherwise bounds the loop by add latency.
func sqDistRows(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	c := 0
	for ; c+4 <= len(a); c += 4 {
		d0 := a[c] - b[c]
		d1 := a[c+1] - b[c+1]
		d2 := a[c+2] - b[c+2]
		d3 := a[c+3] - b[c+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; c < len(a); c++ {
		d := a[c] - b[c]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}
