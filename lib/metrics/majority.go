package metrics

import (
	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/triplets"
)

// MajorityError returns the fraction of the queries in s (a head and an
// unordered pair of candidates, see triplets.Query) answered without a tie
// whose majority answer (h, a, b) emb violates, with ‖eₕ−eₐ‖ ≥ ‖eₕ−e_b‖ counting as
// violated, as in TripletError. It is the test measure of the material
// similarity data (Lagunas et al., SIGGRAPH 2019; their losses.py,
// get_majority_accuracy, returns 1 minus it and counts a query as agreed
// only when the majority's distance is strictly smaller), and it scores
// answers people repeated without letting the number of repeats weigh a
// query. Tied queries are left out; a set with none other scores 0. It
// panics as TripletError does when emb has fewer rows than s.N.
func MajorityError(emb *mat.Dense, s *triplets.Set) float64 {
	majority := &triplets.Set{N: s.N}
	for _, q := range triplets.Tallies(s) {
		if i, j, k, ok := q.Majority(); ok {
			majority.Append(i, j, k)
		}
	}
	return TripletError(emb, majority)
}
