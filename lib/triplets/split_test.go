package triplets

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// answers is a set of repeated answers: 30 queries over 12 items, each
// answered 1 to 4 times (73 triplets), in both orientations.
func answers() *Set {
	s := &Set{N: 12}
	for q := int32(0); q < 30; q++ {
		h, a, b := q%12, (q+1+q/12)%12, (q+5+q/12)%12
		for r := int32(0); r <= q%4; r++ {
			if r%2 == 0 {
				s.Append(h, a, b)
			} else {
				s.Append(h, b, a)
			}
		}
	}
	return s
}

func TestTallies(t *testing.T) {
	s := &Set{N: 4, Idx: []int32{0, 1, 2, 0, 2, 1, 3, 2, 1, 0, 1, 2, 3, 1, 2, 1, 0, 3}}
	want := []Tally{
		{Query{0, 1, 2}, 2, 1}, // (0,1,2) twice, (0,2,1) once
		{Query{3, 1, 2}, 1, 1},
		{Query{1, 0, 3}, 1, 0},
	}
	if got := Tallies(s); !slices.Equal(got, want) {
		t.Errorf("Tallies = %v, want %v", got, want)
	}
	for _, tc := range []struct {
		tally   Tally
		i, j, k int32
		ok      bool
	}{
		{want[0], 0, 1, 2, true},
		{want[1], 0, 0, 0, false},
		{Tally{Query{5, 1, 2}, 0, 3}, 5, 2, 1, true},
	} {
		i, j, k, ok := tc.tally.Majority()
		if i != tc.i || j != tc.j || k != tc.k || ok != tc.ok {
			t.Errorf("%v.Majority() = %d, %d, %d, %v; want %d, %d, %d, %v", tc.tally, i, j, k, ok, tc.i, tc.j, tc.k, tc.ok)
		}
	}
}

func TestSplit(t *testing.T) {
	s := answers()
	s.Names = []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}
	for _, tc := range []struct {
		by       SplitBy
		wantTest int // groups held out: round(0.2 × 30 queries) or round(0.2 × 73 triplets)
	}{{ByQuery, 6}, {ByTriplet, 15}} {
		t.Run(tc.by.String(), func(t *testing.T) {
			train, test, err := Split(s, 0.2, tc.by, 7)
			if err != nil {
				t.Fatal(err)
			}
			if train.Len()+test.Len() != s.Len() {
				t.Fatalf("sides hold %d + %d triplets, want %d", train.Len(), test.Len(), s.Len())
			}
			for _, side := range []*Set{train, test} {
				if side.N != s.N || !slices.Equal(side.Names, s.Names) {
					t.Errorf("a side lost the items: N=%d names %q", side.N, side.Names)
				}
			}
			if tc.by == ByQuery {
				if got := len(Tallies(test)); got != tc.wantTest {
					t.Errorf("%d test queries, want %d", got, tc.wantTest)
				}
				inTrain := map[Query]bool{}
				for _, q := range Tallies(train) {
					inTrain[q.Query] = true
				}
				for _, q := range Tallies(test) {
					if inTrain[q.Query] {
						t.Errorf("query %v on both sides", q.Query)
					}
				}
			} else if test.Len() != tc.wantTest {
				t.Errorf("%d test triplets, want %d", test.Len(), tc.wantTest)
			}
			// Each side keeps the input's order: it is a subsequence of s.
			for _, side := range []*Set{train, test} {
				p := 0
				for t2 := 0; t2 < side.Len(); t2++ {
					for p < s.Len() && !slices.Equal(s.Idx[3*p:3*p+3], side.Idx[3*t2:3*t2+3]) {
						p++
					}
					p++
				}
				if p > s.Len() {
					t.Errorf("a side is not in the input's order")
				}
			}
			again, _, _ := Split(s, 0.2, tc.by, 7)
			other, _, _ := Split(s, 0.2, tc.by, 8)
			if !slices.Equal(again.Idx, train.Idx) {
				t.Error("same seed, different split")
			}
			if slices.Equal(other.Idx, train.Idx) {
				t.Error("seeds 7 and 8 gave the same split")
			}
		})
	}
}

func TestSplitErrors(t *testing.T) {
	s := answers()
	for _, tc := range []struct {
		name     string
		fraction float64
		by       SplitBy
		want     string
	}{
		{"zero", 0, ByQuery, "test fraction 0 is not in (0, 1)"},
		{"one", 1, ByQuery, "test fraction 1 is not in (0, 1)"},
		{"NaN", math.NaN(), ByTriplet, "test fraction NaN is not in (0, 1)"},
		{"test side empty", 0.01, ByQuery, "a test fraction of 0.01 of 30 queries leaves the test side empty"},
		{"training side empty", 0.99, ByQuery, "a test fraction of 0.99 of 30 queries leaves the training side empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Split(s, tc.fraction, tc.by, 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestFolds(t *testing.T) {
	s := answers()
	folds, err := Folds(s, 4, ByQuery, 3)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[Query]int{} // query → its fold
	tested := 0
	for f, fold := range folds {
		if fold.Train.Len()+fold.Test.Len() != s.Len() {
			t.Errorf("fold %d: %d + %d triplets, want %d", f, fold.Train.Len(), fold.Test.Len(), s.Len())
		}
		tested += fold.Test.Len()
		qs := Tallies(fold.Test)
		if n := len(qs); n != 7 && n != 8 { // 30 queries in 4 folds
			t.Errorf("fold %d holds out %d queries, want 7 or 8", f, n)
		}
		for _, q := range qs {
			if g, dup := seen[q.Query]; dup {
				t.Errorf("query %v held out by folds %d and %d", q.Query, g, f)
			}
			seen[q.Query] = f
		}
		for _, q := range Tallies(fold.Train) {
			if slices.ContainsFunc(qs, func(x Tally) bool { return x.Query == q.Query }) {
				t.Errorf("fold %d: query %v in both its training and test triplets", f, q.Query)
			}
		}
	}
	if tested != s.Len() || len(seen) != 30 {
		t.Errorf("folds hold out %d triplets of %d queries, want %d of 30", tested, len(seen), s.Len())
	}
	for _, tc := range []struct {
		k    int
		by   SplitBy
		want string
	}{
		{31, ByQuery, "31 folds of 30 queries: want 2 to 30 folds"},
		{1, ByTriplet, "1 folds of 73 triplets: want 2 to 73 folds"},
	} {
		if _, err := Folds(s, tc.k, tc.by, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Folds(k=%d, %v): error %v, want %q", tc.k, tc.by, err, tc.want)
		}
	}
}

func TestParseSplitBy(t *testing.T) {
	for _, b := range []SplitBy{ByQuery, ByTriplet} {
		if got, err := ParseSplitBy(b.String()); err != nil || got != b {
			t.Errorf("ParseSplitBy(%q) = %v, %v", b, got, err)
		}
	}
	if _, err := ParseSplitBy("item"); err == nil || !strings.Contains(err.Error(), `split by "item": want query or triplet`) {
		t.Errorf("ParseSplitBy(item): error %v", err)
	}
}
