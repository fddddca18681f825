// Package job defines one run of an experiment: its Config (dataset, size,
// triplet multiplier, noise, algorithm and parameters, dimension, seed,
// repetition, backend), the canonical form of that config and the cache key
// derived from it, and the Outcome a run produces (metrics, trace, timings,
// embedding).
//
// The key is the SHA-256 of the canonical JSON of the config (sorted keys,
// numbers in their shortest form, the algorithm's default parameters filled
// in) together with the algorithm's implementation version and the version of
// the evaluation protocol, so that a change that alters results also changes
// the key and the run is executed again.
package job
