// Package gram implements the ordinal embedding methods that optimise over
// the Gram matrix K = XXᵀ of the items instead of the embedding X: GNMDS
// (hinge loss on K with a trace regulariser), CKL (the crowd-kernel
// likelihood) and FORTE (logistic loss, rank-d projected gradient descent
// with a backtracking line search), as in section 2 and the appendix of
// Vankadara et al.
//
// Every step is a gradient move followed by a projection onto the PSD
// matrices of rank ≤ d. Two facts keep this cheap:
//
//   - After a projection K has rank ≤ d, so it is kept as a factor X (n×d)
//     with K = XXᵀ; the entries a triplet needs are dot products of rows.
//   - The gradient of a triplet loss with respect to K touches only the
//     entries (i,i), (j,j), (k,k), (i,j) and (i,k) of its triplet: it is the
//     Laplacian of a graph whose edges are the pairs that occur in triplets
//     (plus λI for the trace). Adam's moments live on the same entries, so
//     every step moves K by a matrix supported on that fixed sparsity
//     pattern.
//
// The matrix to project is therefore "low rank plus sparse", and its top-d
// eigenpairs are found by a restarted block Krylov (block Lanczos with full
// reorthogonalisation and Rayleigh–Ritz) solver, TopEigen, warm-started from
// the previous step's eigenvectors. Nothing of size n×n is ever allocated,
// so the memory a run needs is O(n·d + number of triplets); MemoryLimit
// guards it. The same solver works on any symmetric operator, dense ones
// included (DenseOperator).
//
// The methods register themselves with lib/embed as "gnmds", "ckl" and
// "forte".
package gram
