package triplets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// chunkSize is the number of triplets one generator task produces. Each chunk
// has its own random stream derived from (seed, chunk number), so the output
// depends on the seed only, not on the number of threads.
const chunkSize = 1 << 16

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
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	chunks := (m + chunkSize - 1) / chunkSize
	var next int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < threads; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				c := next
				next++
				mu.Unlock()
				if c >= int64(chunks) {
					return
				}
				from := int(c) * chunkSize
				to := min(from+chunkSize, m)
				fillChunk(s.Idx[3*from:3*to], raw, n, noise, seed, uint64(c))
			}
		}()
	}
	wg.Wait()
	return s, nil
}

func fillChunk(dst []int32, x blas64.General, n int, noise Noise, seed, chunk uint64) {
	rng := rand.New(rand.NewPCG(seed, chunk^0x9e3779b97f4a7c15))
	for r := 0; r < len(dst); r += 3 {
		i, j, k := distinctTriple(rng, n)
		dst[r], dst[r+1], dst[r+2] = orient(rng, x, i, j, k, noise)
	}
}

// distinctTriple samples three distinct indices uniformly from [0, n).
func distinctTriple(rng *rand.Rand, n int) (i, j, k int32) {
	i = int32(rng.IntN(n))
	for j = i; j == i; {
		j = int32(rng.IntN(n))
	}
	for k = i; k == i || k == j; {
		k = int32(rng.IntN(n))
	}
	return i, j, k
}

// orient answers the query "is i closer to j than to k?" under noise and
// returns the triplet in the answered order.
func orient(rng *rand.Rand, x blas64.General, i, j, k int32, noise Noise) (int32, int32, int32) {
	closerJ := Closer(x, int(i), int(j), int(k), noise, rng)
	if closerJ {
		return i, j, k
	}
	return i, k, j
}

// Closer answers whether row i of x is closer to row j than to row k, under
// noise. Ties count as closer to j. rng may be nil when noise is NoNoise.
func Closer(x blas64.General, i, j, k int, noise Noise, rng *rand.Rand) bool {
	dij := sqDist(x, i, j)
	dik := sqDist(x, i, k)
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

func sqDist(x blas64.General, a, b int) float64 {
	ra := x.Data[a*x.Stride : a*x.Stride+x.Cols]
	rb := x.Data[b*x.Stride : b*x.Stride+x.Cols]
	var s float64
	for c, v := range ra {
		d := v - rb[c]
		s += d * d
	}
	return s
}
