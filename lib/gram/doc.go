// Package gram implements the ordinal embedding methods that optimise over
// the Gram matrix K = XXᵀ of the items instead of the embedding X: GNMDS
// (hinge loss on K with a trace regulariser), CKL (the crowd-kernel
// likelihood) and FORTE (logistic loss, rank-d projected gradient descent
// with a backtracking line search), as in section 2 and the appendix of
// Vankadara et al.
//
// # Which to use
//
// These are the paper's solvers, kept with its settings (GNMDS: Adam with
// learning rate 10, λ = 0; CKL: Adam with learning rate 100, λ = 0, μ = 0.1
// as in the authors' code; FORTE: step 100, ρ = 0.5, c₁ = 10⁻⁴) so that the
// paper's experiments reproduce. For GNMDS and CKL they are poor on real
// data: on the material similarity comparisons (d = 2, the dataset
// authors' majority test error) GNMDS gets 0.191 and CKL 0.207, against
// 0.139 and 0.134 for the same objectives minimised over X (lib/tripletloss's
// gnmdsx and cklx, with L-BFGS; 0.142 both with Adam) and 0.137–0.140 for
// the peers' CKL and GNMDS (bench/gram.md). Each method's Info names its
// factored form (embed.Info.Factored): gnmdsx, cklx, and STE for FORTE,
// whose logistic loss is STE's. Use those on real data, CKL-x started from
// SOE's embedding (cklx's parameter init = 1: 0.132 on material with
// L-BFGS, 0.139 with Adam; at low d from a random start its layout can stay
// folded).
//
// Why the projected solver fails is measured in bench/gram.md: not a bug
// of this implementation (projections are exact to 10⁻⁶, μ, the initial K
// and the batch size change nothing), but Adam itself. Adam moves every
// entry of K by about its learning rate whatever the size of the entry's
// gradient, so a step is not the gradient's (triplet-supported Laplacian)
// shape and does not shrink as the iterate settles; projecting K plus such
// a step onto rank d inflates K's top eigenvalues, so K's scale grows by
// about the learning rate every step (the final trace is proportional to
// the learning rate) and, with λ = 0, GNMDS's hinge grows with it (its loss
// per triplet rises from 1 to 112 over 200 epochs on the GMM case). The
// same objectives minimised by projected gradient steps with a line search
// (FORTE's solver) reach a test error of 0.072 (GNMDS) and 0.049 (CKL) on
// the GMM case where Adam's end at 0.274 and 0.380. The authors' code
// (evaluate-OE, lib/gnmds.py and lib/ckl.py) rebinds K to the projection
// after the first step, which leaves the optimiser stepping a tensor no
// longer used: its GNMDS and CKL take a single Adam step, which is why the
// paper's times for them are below a second.
//
// Beyond the paper, GNMDS and CKL take a projection tolerance (parameter
// tol, ProjectionTol): a loose one (10⁻² or 10⁻¹) stops each projection's
// eigensolver after a block product or two from the current eigenvectors,
// so the new subspace stays near the old one, a damping of Adam's steps. On
// CHAR at d = 30 it is four times faster and more accurate (test error
// 0.13–0.14 against the exact projections' 0.19; bench/gram.md), still far
// from the factored forms (0.04–0.05); at d = 2 it changes little.
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
// so the memory a run needs is O(n·d + number of triplets); embed.MemoryLimit
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
//     eigenvectors, and the candidates of its first iteration and of every
//     backtrack are screened with loose projections: a candidate far above
//     f(K) is rejected after a product or two (see FORTE; on CHAR, d = 30,
//     the first iteration takes 44 products instead of 201). An accepted
//     candidate's objective pass also leaves its coefficients, so the next
//     iteration's gradient is a gather only.
//   - The sparse product reads the step's values in adjacency order and
//     adds four neighbour rows per pass over the output row: the product is
//     bound by loads and stores of that row, and this halves its time.
//     Rows are independent, so it runs in parallel with a fixed summation
//     order per row: the same seed gives the same result for any number of
//     threads. The four-row passes of a row are one call of
//     lib/internal/asm's Axpy4Rows: on amd64 with AVX2, four columns at a
//     time in assembly, with the Go twin's multiplies and adds in its order,
//     so results are bit-identical to it (another third off the product at
//     d = 30; one call per row instead of per four neighbours: 2.5× less
//     time at d = 2, n = 10,000, and ~15% at d = 30). The single rows left
//     over use gonum's floats.AddScaled, whose assembly multiplies and adds
//     separately, as the Go loop it replaced did, and is as fast or faster
//     (benchstat, n = 6: the same at 7, 12 and 100 columns, 66% less time
//     at 45, the row length at d = 30).
//
// Where src is larger than a quarter of a core's private cache (n = 7,291
// at d = 50) the product reads the neighbour rows in cache-sized blocks of
// neighbours, in the same order per row (0.22 → 0.13 ns an entry and
// column). The solver's dense products (Qᵀ(AQ) for Rayleigh–Ritz, the Ritz
// vectors, the reorthogonalisation, the low-rank part) keep a 4×8 tile of
// the result in registers over 256 inner indices (asm.MulAdd4x8), adding
// products in gonum's order so that results are its bit for bit, 2.6–4.6
// times faster than gonum's Dgemm; at the USPS size they were a quarter of
// a GNMDS epoch and are now a tenth.
//
// The solver's n×(Depth·b) workspace is allocated once per run. Where that
// basis would hold 70% of n or more (small n, large d: n = 400, d = 50) the
// matrix is formed and decomposed densely, which is faster there
// (denseShare). Elsewhere a dense path was measured and rejected: at CHAR's
// density (the pattern covers 77% of
// the n² entries) gonum's dense product with an n×45 block takes 40 ms
// against 30 ms for the sparse one (before the changes above), before forming the dense matrix, and a
// full dense eigendecomposition (gonum EigenSym) takes 17 s at n = 2,000.
// Sparser problems (small d, large n) favour the sparse product further, so
// there is no crossover to switch at.
//
// GNMDS and CKL resume (embed.Info.Resumable): given Options.Checkpoint, a
// CPU fit keeps its state between two batches (the factor, the
// eigensolver's warm start, the Adam moments over the pattern) and, started
// again, goes on where it stopped, taking the same steps bit for bit. Their
// paper-profile runs at USPS size take 36 minutes (CKL's noise runs) to
// about 10 hours (GNMDS at λ = 8), longer than a session's budget or a
// cluster task's limit. The state is large: at USPS size and λ = 2 about
// 330 MB, a write of 1.5 s on the campaign's VM, 2.5% of the default minute
// between writes (`oerun run --checkpoint-every` spaces them). FORTE's runs
// there take under an hour; it does not resume.
//
// The methods register themselves with lib/embed as "gnmds", "ckl" and
// "forte". GNMDS and CKL take Options.Optimizer "adam" (their only one);
// FORTE none: its line search is its own.
package gram
