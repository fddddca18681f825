package triplets

// Violated reports whether an embedding violates the triplet (i, j, k),
// given dij and dik, its distances (or squared distances) from item i to
// items j and k: unless i is strictly closer to j than to k. Ties and NaN
// count as violated, so that a collapsed embedding (all points equal)
// violates every triplet and a diverged one never looks good.
//
// It is the one rule by which oe counts a triplet error: lib/metrics'
// TripletError and the stopping rule's checks of every method
// (lib/tripletloss, lib/gram, lib/oenn; lib/cuda's tl_violations is its GPU
// twin). The authors' code counted only strict violations; the two differ
// only on exact ties.
func Violated[F float32 | float64](dij, dik F) bool { return !(dij < dik) }
