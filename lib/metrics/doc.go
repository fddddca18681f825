// Package metrics scores an embedding the way the paper does: the fraction of
// triplets it violates (train and test triplet error), its Procrustes
// disparity to the ground-truth points, and the error of a k-nearest-neighbour
// classifier trained on it (KNNError on a 70/30 split; CrossKNNError of new
// items against training items); and, for answers people gave, the fraction
// of queries whose majority answer it violates (MajorityError).
//
// Where the paper's text leaves a choice open, the functions follow the
// authors' evaluation code (tml-tuebingen/evaluate-OE,
// preprocessing_utils/TripletData.py); each doc comment says which choice
// it makes. All functions are deterministic: parallel parts sum integer
// counts, and the kNN split comes from a seed.
//
// Misuse and bad data: arguments that disagree in size (an embedding with
// fewer rows than the triplets index, truth and embedding of different row
// counts, labels not one per point) are a caller's bug, and every function
// panics on them, as gonum's do on shape mismatches; a caller holding input
// from files checks the sizes first. Data that cannot be scored (too few
// points, NaN or Inf entries, points that all coincide) is an error.
package metrics
