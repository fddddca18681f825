package tripletloss

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/internal/numeric"
)

// EpochTimes times full training epochs of alg (one of this package's
// methods) on synthetic input: m uniformly random triplets over n items in d
// dimensions, embedding uniform in [0,1). With random triplets nearly every
// SOE hinge is active, the expensive case. One untimed warm-up epoch runs
// first. seed draws the triplets and the embedding; threads ≤ 0 means
// GOMAXPROCS (seed before threads, as in triplets.Random). It backs the
// package's benchmarks and `oerun bench`, and does what
// bench/baseline/soe_epoch.c does in C.
func EpochTimes(alg embed.Algorithm, n, d, m, epochs int, seed uint64, threads int) ([]time.Duration, error) {
	meth, ok := alg.(method)
	if !ok {
		return nil, fmt.Errorf("tripletloss: %s is not a triplet-loss method", alg.Name())
	}
	if n < 3 || d < 1 || m < 1 || epochs < 1 {
		return nil, fmt.Errorf("tripletloss: bad benchmark size n=%d d=%d m=%d epochs=%d", n, d, m, epochs)
	}
	r, err := meth.resolve(d)
	if err != nil {
		return nil, err
	}
	k, batch, err := benchKernel(r, n, d, m, seed, threads)
	if err != nil {
		return nil, err
	}
	idx := syntheticTriplets(n, m, seed)
	times := make([]time.Duration, 0, epochs)
	for e := 0; e <= epochs; e++ {
		start := time.Now()
		for from := 0; from < m; from += batch {
			if _, err := k.step(idx[3*from : 3*min(from+batch, m)]); err != nil {
				return nil, err
			}
		}
		if !numeric.AllFinite(k.x) {
			return nil, errors.New("tripletloss: benchmark diverged")
		}
		if e > 0 {
			times = append(times, time.Since(start))
		}
	}
	return times, nil
}

func benchKernel(r run, n, d, m int, seed uint64, threads int) (*kernel, int, error) {
	if threads <= 0 {
		threads = defaultThreads()
	}
	batch := min(m, DefaultBatchSize)
	k, err := newKernel(r.loss, initialEmbedding(n, d, r.initScale, seed), n, d, min(threads, batch), DefaultLearningRate)
	return k, batch, err
}

// syntheticTriplets draws m triplets of distinct uniform indices in [0, n).
func syntheticTriplets(n, m int, seed uint64) []int32 {
	rng := rand.New(rand.NewPCG(seed, 0xbe7c))
	idx := make([]int32, 3*m)
	for t := 0; t < m; t++ {
		i := rng.IntN(n)
		j := rng.IntN(n - 1)
		if j >= i {
			j++
		}
		k := rng.IntN(n - 2)
		for _, v := range sortedPair(i, j) {
			if k >= v {
				k++
			}
		}
		idx[3*t], idx[3*t+1], idx[3*t+2] = int32(i), int32(j), int32(k)
	}
	return idx
}

func sortedPair(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}
