package triplets

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// RandomOutOfSample draws m triplets (x*, y, z) over the rows of x whose
// first nTrain rows are training items and the rest new items: x* is a new
// item and y, z are distinct training items, each drawn uniformly, stored in
// the order the (noisy) distances give. These are the triplets of OENN's
// out-of-sample extension (the paper's supplement, "Generalization to new
// items": T′ relates each new item to training items only).
//
// The result depends on seed only. It is an error to have fewer than 2
// training items or no new item, and for noise to be invalid.
func RandomOutOfSample(x *mat.Dense, nTrain, m int, noise Noise, seed uint64) (*Set, error) {
	n, _ := x.Dims()
	switch {
	case nTrain < 2 || nTrain >= n:
		return nil, fmt.Errorf("triplets: out-of-sample triplets need ≥ 2 training items and ≥ 1 new item, have %d and %d", nTrain, n-nTrain)
	case n > math.MaxInt32:
		return nil, fmt.Errorf("triplets: %d points exceed the int32 index range", n)
	case m < 0:
		return nil, fmt.Errorf("triplets: negative triplet count %d", m)
	}
	if err := noise.Check(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x7e57))
	raw := x.RawMatrix()
	set := NewSet(n, m)
	for range m {
		i := nTrain + rng.IntN(n-nTrain)
		j := rng.IntN(nTrain)
		k := rng.IntN(nTrain - 1)
		if k >= j {
			k++
		}
		if Closer(raw, i, j, k, noise, rng) {
			set.Append(int32(i), int32(j), int32(k))
		} else {
			set.Append(int32(i), int32(k), int32(j))
		}
	}
	return set, nil
}
