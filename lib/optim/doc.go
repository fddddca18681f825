// Package optim holds the optimisers the embedding methods share: Adam, the
// paper's, for every method that takes batches of triplets, and L-BFGS, for
// the full-batch runs of the embedding-space methods (embed.OptimizerLBFGS).
//
// Adam follows PyTorch's torch.optim.Adam step by step, including its
// AMSGrad variant, because the paper's methods were run with
// Adam(amsgrad=True) and we want the same trajectory, not just a similar one.
//
// Adam is generic over its element type: float32 for the embeddings and
// networks (lib/tripletloss, lib/oenn, lib/landmark), stored in float32 to
// halve memory traffic in their kernels, and float64 for the Gram methods
// (lib/gram). Its update rounds each product before adding it, so the result
// is the same on every architecture and a GPU port (lib/cuda's adam_step)
// matches it bit for bit. A step can be split into ranges updated by
// several goroutines at once (NextStep, then UpdateRange); each entry's
// update depends on that entry alone, so the split does not change the
// result.
//
// LBFGS is gonum/optimize's L-BFGS with its More–Thuente line search, behind
// an interface of one function that returns the objective and fills its
// gradient (called once per point the line search tries) and a hook after
// every iteration, where a method records its epoch and applies the
// paper's stopping rule. It works in float64 and is as deterministic as the
// function it minimises.
package optim
