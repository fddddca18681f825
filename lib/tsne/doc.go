// Package tsne computes two-dimensional t-SNE views of high-dimensional
// points, for the figures of the experiment reports.
//
// It implements Barnes–Hut t-SNE (van der Maaten, "Accelerating t-SNE using
// Tree-Based Algorithms", JMLR 15, 2014):
//
//   - Input affinities: for every point, the K = ⌊3·perplexity⌋ exact nearest
//     neighbours (parallel brute force) get Gaussian weights whose bandwidth is
//     found by bisection so that the conditional distribution has the requested
//     perplexity; the conditionals are symmetrised and normalised to sum to 1.
//     Squared Euclidean distances are used, as in the paper's definition (the
//     authors' Barnes–Hut program feeds plain distances to the kernel).
//   - Optimisation: gradient descent with momentum 0.5 for the first 250
//     iterations and 0.8 afterwards, early exaggeration 12 for the first 250
//     iterations, per-coordinate gains (delta-bar-delta: +0.2 when the gradient
//     sign disagrees with the last update, ×0.8 otherwise, floor 0.01), and the
//     embedding re-centred after every step, as in the reference code. The
//     initial points are N(0, 10⁻⁴·I).
//   - Repulsive forces: a Barnes–Hut quadtree; a cell is summarised by its
//     centre of mass when its side length divided by the distance to that
//     centre is below θ (default 0.5), as in scikit-learn. The authors'
//     program divides half the side, which is as coarse as θ = 1 here: on
//     random layouts it gives gradient errors around 5–10% against about 1%.
//   - Exact mode (Options.Exact): affinities over all other points and the
//     O(n²) gradient, the reference the tests compare the tree code against.
//
// The gradient is the true gradient of KL(P‖Q), including its factor 4. The
// default learning rate is therefore max(n/12/4, 50) (Belkina et al. 2019 as
// adopted by scikit-learn), which equals the reference code's 200 (it drops the
// factor 4) for n ≤ 9600 and grows linearly beyond.
//
// Only 2-D output is supported. Results depend on the seed alone: every
// parallel step writes per-point results that are combined in a fixed order, so
// the thread count does not change a single bit of the output.
package tsne
