// Package optim holds the first-order optimiser that every embedding method
// shares. Adam follows PyTorch's torch.optim.Adam step by step, including its
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
package optim
