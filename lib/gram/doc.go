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
// # Cost
//
// On CPU almost all the time goes to the projections, and in them to block
// products with the step matrix (n×b blocks, b = d + max(4, d/2)). Three
// choices keep their number and cost down:
//
//   - The solver runs Rayleigh–Ritz and the residual test (relative residual
//     ≤ 10⁻⁶ of every wanted pair) after every block product, so a warm
//     start stops after the few products it needs rather than a full basis
//     of Depth blocks (on CHAR, n = 1,797 and d = 30, GNMDS's steps take
//     about 7 products instead of 9).
//   - FORTE's backtracks start the solver from the previous candidate's
//     eigenvectors (see FORTE).
//   - The sparse product reads the step's values in adjacency order and
//     adds four neighbour rows per pass over the output row: the product is
//     bound by loads and stores of that row, and this halves its time.
//     Rows are independent, so it runs in parallel with a fixed summation
//     order per row: the same seed gives the same result for any number of
//     threads. The four-row pass is lib/internal/asm's Axpy4: on amd64 with
//     AVX2, four columns at a time in assembly, with the Go twin's
//     multiplies and adds in its order, so results are bit-identical to it
//     (another third off the product at d = 30). The single rows left
//     over use gonum's floats.AddScaled, whose assembly multiplies and adds
//     separately, as the Go loop it replaced did, and is as fast or faster
//     (benchstat, n = 6: the same at 7, 12 and 100 columns, 66% less time
//     at 45, the row length at d = 30).
//
// The solver's n×(Depth·b) workspace is allocated once per run. A dense path
// was measured and rejected: at CHAR's density (the pattern covers 77% of
// the n² entries) gonum's dense product with an n×45 block takes 40 ms
// against 30 ms for the sparse one (before the changes above), before forming the dense matrix, and a
// full dense eigendecomposition (gonum EigenSym) takes 17 s at n = 2,000.
// Sparser problems (small d, large n) favour the sparse product further, so
// there is no crossover to switch at.
//
// The methods register themselves with lib/embed as "gnmds", "ckl" and
// "forte".
package gram
