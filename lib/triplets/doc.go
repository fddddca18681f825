// Package triplets holds ordinal triplet comparisons and everything that makes
// them: random generation from ground-truth points (optionally noisy), an
// Oracle for active methods that counts its queries, and reading and writing
// triplet files (CSV and NumPy .npy).
//
// A triplet (i, j, k) states that item i is closer to item j than to item k.
// A Set stores m triplets compactly as an m×3 row-major int32 array, 12 bytes a
// triplet, which is also the memory layout of an (m, 3) int32 .npy file.
package triplets
