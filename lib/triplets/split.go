package triplets

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// SplitBy says what a held-out split keeps together.
type SplitBy int

const (
	// ByQuery puts every answer to one query (see Query) on the same side,
	// so that a test answer never has a twin, or its opposite, in training.
	ByQuery SplitBy = iota
	// ByTriplet splits answers independently.
	ByTriplet
)

// String names the unit of a split as oerun's --by flag spells it.
func (b SplitBy) String() string {
	switch b {
	case ByQuery:
		return "query"
	case ByTriplet:
		return "triplet"
	}
	return fmt.Sprintf("SplitBy(%d)", int(b))
}

func (b SplitBy) plural() string {
	if b == ByQuery {
		return "queries"
	}
	return "triplets"
}

// ParseSplitBy reads "query" or "triplet".
func ParseSplitBy(s string) (SplitBy, error) {
	for _, b := range []SplitBy{ByQuery, ByTriplet} {
		if s == b.String() {
			return b, nil
		}
	}
	return 0, fmt.Errorf("triplets: split by %q: want query or triplet", s)
}

// groups numbers the units of a split: each triplet's group and the number
// of groups.
func groups(s *Set, by SplitBy) ([]int32, int) {
	if by == ByQuery {
		return queryIDs(s)
	}
	ids := make([]int32, s.Len())
	for t := range ids {
		ids[t] = int32(t)
	}
	return ids, len(ids)
}

// shuffled returns the group numbers 0..count-1 in a random order drawn
// from seed.
func shuffled(count int, seed uint64) []int {
	return rand.New(rand.NewPCG(seed, 0x5e1d)).Perm(count)
}

// Split holds out a seeded random part of s for testing: round(testFraction
// × G) of its G groups, the groups being queries or triplets as by says.
// Both sides keep the N and Names of s and the order of its triplets, and
// the same s, fraction, by and seed give the same split. It is an error for
// testFraction to lie outside (0, 1) or to leave either side empty.
func Split(s *Set, testFraction float64, by SplitBy, seed uint64) (train, test *Set, err error) {
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	if !(testFraction > 0 && testFraction < 1) {
		return nil, nil, fmt.Errorf("triplets: test fraction %v is not in (0, 1)", testFraction)
	}
	ids, count := groups(s, by)
	nTest := int(math.Round(testFraction * float64(count)))
	if nTest == 0 || nTest == count {
		side := "test"
		if nTest == count {
			side = "training"
		}
		return nil, nil, fmt.Errorf("triplets: a test fraction of %v of %d %s leaves the %s side empty", testFraction, count, by.plural(), side)
	}
	held := make([]bool, count)
	for _, g := range shuffled(count, seed)[:nTest] {
		held[g] = true
	}
	train, test = s.empty(), s.empty()
	for t, g := range ids {
		dst := train
		if held[g] {
			dst = test
		}
		dst.Idx = append(dst.Idx, s.Idx[3*t:3*t+3]...)
	}
	return train, test, nil
}

// Fold is one fold of a cross-validation: the triplets it holds out (Test)
// and all the others (Train).
type Fold struct{ Train, Test *Set }

// Folds partitions s into k folds for cross-validation: its groups (queries
// or triplets, as by says) are shuffled with seed and dealt in turn, so
// fold sizes in groups differ by at most one. Every fold keeps the N and
// Names of s and the order of its triplets. It is an error for k to be
// below 2 or above the number of groups.
func Folds(s *Set, k int, by SplitBy, seed uint64) ([]Fold, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	ids, count := groups(s, by)
	if k < 2 || k > count {
		return nil, fmt.Errorf("triplets: %d folds of %d %s: want 2 to %d folds", k, count, by.plural(), count)
	}
	fold := make([]int, count)
	for p, g := range shuffled(count, seed) {
		fold[g] = p % k
	}
	out := make([]Fold, k)
	for f := range out {
		out[f] = Fold{Train: s.empty(), Test: s.empty()}
	}
	for t, g := range ids {
		for f := range out {
			dst := out[f].Train
			if fold[g] == f {
				dst = out[f].Test
			}
			dst.Idx = append(dst.Idx, s.Idx[3*t:3*t+3]...)
		}
	}
	return out, nil
}

// empty returns a set over the items of s with no triplets.
func (s *Set) empty() *Set { return &Set{N: s.N, Names: s.Names} }
