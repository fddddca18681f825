// Package triplets holds ordinal triplet comparisons and everything that makes
// them: random generation from ground-truth points (optionally noisy),
// out-of-sample triplets that relate new items to training items, an Oracle
// for active methods that counts its queries, reading and writing triplet
// files (CSV and NumPy .npy), and held-out splits of answers people gave.
//
// A triplet (i, j, k) states that item i is closer to item j than to item k.
// A Set stores m triplets compactly as an m×3 row-major int32 array, 12 bytes a
// triplet, which is also the memory layout of an (m, 3) int32 .npy file.
// Items are numbered 0..N-1; a Set read from a file of named items also
// carries their names (Set.Names), numbered in increasing byte order.
//
// Triplet files come in two formats, chosen by extension:
//   - CSV (.csv, .txt): one "i,j,k" per line; blank lines and '#' comments are
//     skipped, a first line "i,j,k" is a header, and a comment "# n=N"
//     before the data records the number of items (WriteCSV writes both).
//     Items are numbers or names (any other token, RFC 4180 quoting), never
//     both in one file. A file whose header names the columns head, left,
//     right and answer holds people's answers, one a row (FormResponses):
//     each is the triplet (head, chosen, other), and repeated answers are
//     repeated triplets.
//   - NumPy .npy: an (m, 3) little-endian int32 or int64 array in C order, as
//     numpy.save writes it; WriteNPY writes int32.
//
// Readers check every triplet (indices in range and distinct) and report the
// file and line (CSV) or row (.npy) at fault; WriteFile replaces its target
// atomically.
//
// A Query is what people are asked: the head and an unordered pair of
// candidates. Split and Folds hold out whole queries (or single triplets),
// deterministically for a seed, and Tallies counts the answers to each.
package triplets
