package datasets

import (
	"fmt"

	"github.com/oe-lab/oe/lib/triplets"
)

// Comparisons is a dataset of comparisons people answered about named
// items ("which of these two looks more like the reference?"), split into
// training and test queries as its authors split them.
//
// Its test measure is MajorityError (lib/metrics) on
// Triplets(Test, EachVote): the fraction of test queries without a tie
// whose majority answer an embedding violates.
type Comparisons struct {
	Name string
	// Names names the items, in increasing byte order: item i is Names[i].
	Names []string
	// Train and Test are the answered queries of each side.
	Train, Test []Answered
	// Description is the Spec's description.
	Description string
}

// Answered is one query, "is A or B more like Ref?", with the number of
// people who chose each.
type Answered struct {
	Ref, A, B  int32
	ForA, ForB int
}

// Votes says how answered queries become triplets.
type Votes int

const (
	// EachVote is one triplet per vote in that voter's orientation: a
	// query with ForA = x and ForB = y gives x triplets (Ref, A, B) and y
	// triplets (Ref, B, A), ties included (issue #20).
	EachVote Votes = iota
	// MajorityVote is every vote in the orientation the dataset lists the
	// query in, its majority's (or, on a tie, either): ForA + ForB triplets
	// (Ref, A, B). It is how cblearn builds the material data's training
	// triplets (fetch_material_similarity, then check_query_response with
	// result_format='list-order'), on which the published figures of
	// crowd/material/peers.tsv in the shared data were fit.
	MajorityVote
)

// String names the construction as experiments record it.
func (v Votes) String() string {
	switch v {
	case EachVote:
		return "each-vote"
	case MajorityVote:
		return "majority-vote"
	}
	return fmt.Sprintf("Votes(%d)", int(v))
}

// Triplets returns answers as triplets over the items of c, built as v
// says, with the item names; the queries keep their order, and each query's
// triplets are consecutive.
func (c *Comparisons) Triplets(answers []Answered, v Votes) *triplets.Set {
	total := 0
	for _, a := range answers {
		total += a.ForA + a.ForB
	}
	s := triplets.NewSet(len(c.Names), total)
	s.Names = c.Names
	for _, a := range answers {
		forA, forB := a.ForA, a.ForB
		if v == MajorityVote {
			forA, forB = forA+forB, 0
		}
		for range forA {
			s.Append(a.Ref, a.A, a.B)
		}
		for range forB {
			s.Append(a.Ref, a.B, a.A)
		}
	}
	return s
}

// LoadComparisons returns the named dataset of comparisons, reading (and if
// needed downloading) its files and verifying their checksums.
func LoadComparisons(name string) (*Comparisons, error) {
	spec, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if spec.Kind != KindComparisons {
		return nil, fmt.Errorf("datasets: %s is a dataset of %s, not comparisons: load it with Load", spec.Name, spec.Kind)
	}
	paths, err := obtainAll(spec.Files)
	if err != nil {
		return nil, err
	}
	c, err := spec.compare(paths)
	if err != nil {
		return nil, err
	}
	c.Name, c.Description = spec.Name, spec.Description
	return c, nil
}
