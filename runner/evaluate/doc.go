// Package evaluate computes one run of an experiment the way the paper does:
// load the dataset (a seeded subsample of n items), draw λ·n·d·log₂n training
// triplets (under the run's noise), fit the algorithm (passive methods get
// the triplets, active ones an oracle), and measure
//
//   - the train triplet error on the training triplets (passive methods),
//   - the test triplet error on 10,000 fresh noiseless triplets,
//   - the Procrustes disparity to the ground truth (lib/metrics pads the
//     narrower of the two with zero columns, implicitly),
//   - the kNN error on the embedding and on the original data (labelled
//     datasets only),
//   - the fit time, the time to convergence, epochs, stop reason, queries.
//
// Every random choice derives from the run's Seed and Rep, and not from the
// algorithm, so that all algorithms of one repetition see the same data and
// the same triplets.
//
// Extension computes a run of OENN's out-of-sample protocol instead: OENN
// fitted on part of the items, then extended to the rest, measured as
// above on the training items and by the job.Extension* metrics on the new
// ones.
package evaluate
