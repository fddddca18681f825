// Package crossval chooses an embedding method and dimension d for a set of
// answered comparisons by k-fold cross-validation: every method is fit at
// every d on the triplets outside each fold and scored on the fold's
// held-out triplets (triplet error, lib/metrics). Folds hold out whole
// queries by default (triplets.Folds), so a held-out answer never has a
// twin, or its opposite, in training.
//
// Per method, Run reports the d of the lowest mean held-out error and the
// smallest d whose mean lies within one standard error (sd/√folds) of it:
// the one-standard-error rule (Hastie, Tibshirani & Friedman, The Elements
// of Statistical Learning, 2nd ed., §7.10.1).
//
// Fits run in parallel, each on one thread, through lib/internal/parallel;
// each fit's result depends only on its method, d, fold and the seed, so a
// run is deterministic for a seed whatever the number of threads (fit
// times aside).
package crossval
