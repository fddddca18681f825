// Package optim holds the first-order optimisers that the embedding methods
// share. Adam follows PyTorch's torch.optim.Adam step by step, including its
// AMSGrad variant, because the paper's methods were run with
// Adam(amsgrad=True) and we want the same trajectory, not just a similar one.
//
// Parameters and gradients are float32 slices: the embeddings that use them
// are stored in float32 to halve memory traffic in the triplet kernels.
package optim
