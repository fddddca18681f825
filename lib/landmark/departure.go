package landmark

import "strings"

// Departure is a set of the ways in which the authors' LLOE code (evaluate-
// OE's lsoe_mproc.py and lsoe_utils/oracle.py, which produced the paper's
// LLOE numbers) departs from Anderton & Aslam's description, which LLOE
// follows. LLOE.Replay replays any of them; AuthorsCode replays all, to run
// LLOE as the paper ran it. bench/landmark.md measures what each one does.
type Departure uint

// The departures of the authors' code.
const (
	// TruthRanking places the item in an anchor's ranking by asking the
	// oracle about every member (m queries per anchor, where binary search
	// asks ⌈log₂m⌉ and the code read the ground truth uncounted): the outer
	// radius is the least embedded distance of a member truly farther from
	// the anchor than the item, the inner one the largest of the others.
	TruthRanking Departure = 1 << iota
	// Balls takes the anchor itself as the inner neighbour (the code's
	// argmin over the nearer members, the anchor among them, at distance
	// 0), so that every shell becomes a ball: inner radius 0.
	Balls
	// UniformStart starts each item's optimisation uniform in [0,1)^d (the
	// code's torch.rand) instead of at the member that violates the shells
	// least.
	UniformStart
	// LastPoint runs all the optimisation's steps and keeps its last point
	// instead of the best point seen.
	LastPoint
	// DropBeyond drops an anchor when the item is farther from it than
	// every member, instead of keeping the one-sided constraint.
	DropBeyond
	// FreshSubsets draws each subset of phase one's doubling schedule
	// afresh, L fixed random landmarks and a new random sample of the other
	// items, instead of nested prefixes of one random order.
	FreshSubsets

	// AuthorsCode is every departure: LLOE as the paper ran it.
	AuthorsCode = TruthRanking | Balls | UniformStart | LastPoint | DropBeyond | FreshSubsets
)

// departureNames name the departures in order of their bits.
var departureNames = []string{"truth-ranking", "balls", "uniform-start", "last-point", "drop-beyond", "fresh-subsets"}

// String names the departures of the set, joined by "+": "none" for the
// empty set, "authors-code" for all of them.
func (d Departure) String() string {
	switch d {
	case 0:
		return "none"
	case AuthorsCode:
		return "authors-code"
	}
	var names []string
	for i, name := range departureNames {
		if d&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	if rest := d &^ AuthorsCode; rest != 0 {
		names = append(names, "unknown")
	}
	return strings.Join(names, "+")
}

// Departures lists the single departures, in order.
func Departures() []Departure {
	out := make([]Departure, len(departureNames))
	for i := range out {
		out[i] = 1 << i
	}
	return out
}
