// Package landmark implements the two active, landmark-based ordinal
// embedding methods of the paper: LOE (Ghosh, Chen & Yue 2019, "Landmark
// Ordinal Embedding") and LLOE (Anderton & Aslam 2019, "Scaling up Ordinal
// Embedding: a landmark approach", with the paper's SOE first phase). Both
// ask a triplets.Oracle instead of learning from a fixed triplet set, and
// report the number of queries they made in embed.Result.Queries.
//
// LOE ranks every item by its distance to each of ℓ = d+3 landmarks with a
// Bradley–Terry–Luce maximum-likelihood estimate from random oracle
// comparisons, turns the rankings into landmark-to-item squared distances by
// recovering one unknown shift per landmark from the symmetry and the
// eigenvalue structure of a Euclidean distance matrix (EDM), and embeds with
// Landmark MDS.
//
// LLOE embeds a random subset of items with SOE on random oracle triplets,
// then inserts every other item independently (in parallel): for 2(d+1)
// anchors picked farthest-first it binary-searches the item's position in the
// anchor's distance ranking of the subset, which places the item in a
// spherical shell around the anchor, and it minimises the hinge-relaxed
// shell-intersection objective.
//
// Where the papers leave details open, this package follows the code of the
// paper we reproduce (Vankadara et al.); the method docs say where it departs
// from that code and why.
package landmark
