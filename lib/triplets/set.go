package triplets

import (
	"fmt"
	"math"
)

// MaxItems is the largest number of items a Set can hold: indices are
// int32, from 0 to MaxItems-1.
const MaxItems = math.MaxInt32

// Set is a set of m triplets over the items 0..N-1. Row t is
// (Idx[3t], Idx[3t+1], Idx[3t+2]) = (i, j, k): i is closer to j than to k.
type Set struct {
	// N is the number of items; every index lies in [0, N).
	N int
	// Idx holds the triplets row-major, three int32 per triplet.
	Idx []int32
	// Names, when not nil, names the items: item i is Names[i]. There are N
	// of them, in strictly increasing byte order (see CheckNames). A set
	// read from a file of named items has them; a set of numbered items
	// has none.
	Names []string
}

// NewSet returns an empty set over n items with room for capacity triplets.
func NewSet(n, capacity int) *Set {
	return &Set{N: n, Idx: make([]int32, 0, 3*capacity)}
}

// Len returns the number of triplets.
func (s *Set) Len() int { return len(s.Idx) / 3 }

// At returns triplet t.
func (s *Set) At(t int) (i, j, k int32) {
	r := s.Idx[3*t : 3*t+3 : 3*t+3]
	return r[0], r[1], r[2]
}

// Append adds the triplet (i, j, k).
func (s *Set) Append(i, j, k int32) { s.Idx = append(s.Idx, i, j, k) }

// Slice returns the triplets [from, to) as a Set sharing storage with s.
func (s *Set) Slice(from, to int) *Set {
	return &Set{N: s.N, Idx: s.Idx[3*from : 3*to : 3*to], Names: s.Names}
}

// Validate checks that the set is non-empty, that every index lies in [0, N),
// that the three indices of every triplet are distinct and that the names,
// if any, are N valid names in order (CheckNames). The error names the first
// offending triplet (0-based row) or name.
func (s *Set) Validate() error {
	if s.N < 3 {
		return fmt.Errorf("triplets: need at least 3 items, have N=%d", s.N)
	}
	if s.N > MaxItems {
		return fmt.Errorf("triplets: N=%d items exceed the %d that int32 indices can number", s.N, MaxItems)
	}
	if len(s.Idx)%3 != 0 {
		return fmt.Errorf("triplets: index array length %d is not a multiple of 3", len(s.Idx))
	}
	if s.Len() == 0 {
		return fmt.Errorf("triplets: empty triplet set")
	}
	if s.Names != nil {
		if len(s.Names) != s.N {
			return fmt.Errorf("triplets: %d names for N=%d items", len(s.Names), s.N)
		}
		if err := CheckNames(s.Names); err != nil {
			return err
		}
	}
	n := int32(s.N)
	for t := 0; t < s.Len(); t++ {
		i, j, k := s.At(t)
		if err := checkRow(i, j, k, n); err != nil {
			return fmt.Errorf("triplets: row %d: %w", t, err)
		}
	}
	return nil
}

// checkRow reports why (i, j, k) is not a valid triplet over n items, or nil.
func checkRow(i, j, k, n int32) error {
	for _, v := range [3]int32{i, j, k} {
		if v < 0 || v >= n {
			return fmt.Errorf("index %d out of range [0, %d)", v, n)
		}
	}
	if i == j || i == k || j == k {
		return fmt.Errorf("indices (%d, %d, %d) are not distinct", i, j, k)
	}
	return nil
}

// Count returns the number of triplets ⌈λ · n · d · log₂ n⌉ that the paper
// generates for n items embedded in d dimensions. The logarithm is base 2, as
// in the authors' code (evaluate-OE), whose count is the ceiling of the same
// product; e.g. CHAR (n = 1797) at λ = 2, d = 30 gets 1,165,683 triplets.
func Count(lambda float64, n, d int) int {
	if n < 2 || d < 1 || lambda <= 0 {
		return 0
	}
	return int(math.Ceil(lambda * float64(n) * float64(d) * math.Log2(float64(n))))
}
