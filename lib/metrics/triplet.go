package metrics

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/parallel"
	"github.com/oe-lab/oe/lib/triplets"
)

// rowMismatch is the message of the panics on arguments that disagree in
// size: function, then the two things counted and their counts.
const rowMismatch = "metrics: %s: %s has %d rows, %s %d"

// tripletsPerTask is the number of triplets one task of TripletError
// checks; smaller sets run on the calling goroutine, where starting others
// would cost more than it saves.
const tripletsPerTask = 1 << 14

// TripletError returns the fraction of triplets (i,j,k) of s that emb violates, i.e. with ‖eᵢ−eⱼ‖ ≥ ‖eᵢ−eₖ‖
// (triplets.Violated: ties count as violated). Parallel for large sets.
//
// Ties count as violated so that a collapsed embedding (all points equal)
// scores 1, not 0; the authors' code counts only strict violations, which
// differs only on exact ties. A comparison involving NaN also counts as
// violated, so a diverged embedding can never look good. An empty set
// violates nothing and scores 0. emb must have a row for every item of s
// (at least s.N rows); TripletError panics otherwise (see the package
// comment: a size mismatch is a caller's bug).
func TripletError(emb *mat.Dense, s *triplets.Set) float64 {
	rows, _ := emb.Dims()
	if rows < s.N {
		panic(fmt.Sprintf(rowMismatch, "TripletError", "embedding", rows, "triplet set indexes", s.N))
	}
	m := s.Len()
	if m == 0 {
		return 0
	}
	raw := emb.RawMatrix()
	counts := parallel.Map(0, m, tripletsPerTask, func(_, from, to int) int {
		return violations(raw.Data, raw.Stride, raw.Cols, s.Idx[3*from:3*to])
	})
	bad := 0
	for _, c := range counts {
		bad += c
	}
	return float64(bad) / float64(m)
}

// violations counts the triplets in idx (row-major, three per triplet) that
// the points violate; see TripletError.
func violations(data []float64, stride, cols int, idx []int32) int {
	bad := 0
	for t := 0; t+2 < len(idx); t += 3 {
		i, j, k := int(idx[t])*stride, int(idx[t+1])*stride, int(idx[t+2])*stride
		ei := data[i : i+cols]
		if triplets.Violated(sqDist(ei, data[j:j+cols]), sqDist(ei, data[k:k+cols])) {
			bad++
		}
	}
	return bad
}

// sqDist returns ‖a−b‖².
func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for c, v := range a {
		d := v - b[c]
		s += d * d
	}
	return s
}
