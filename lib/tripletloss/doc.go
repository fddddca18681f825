// Package tripletloss implements the ordinal embedding methods that minimise a
// sum of per-triplet losses directly over the embedding X: SOE, STE, t-STE and
// CKL-x (paper section 2, "Optimization over the Embedding").
//
// All four share one fused, multi-threaded CPU kernel. Per block of 32
// consecutive triplets of a batch it gathers the rows xᵢ, xⱼ, xₖ and computes
// the squared distances dᵢⱼ and dᵢₖ; evaluates the method's loss ℓ(dᵢⱼ, dᵢₖ)
// and its partial derivatives ℓᵢⱼ = ∂ℓ/∂dᵢⱼ, ℓᵢₖ = ∂ℓ/∂dᵢₖ — the only
// per-method code, in loss.go; and scatters
//
//	∂ℓ/∂xᵢ = 2ℓᵢⱼ(xᵢ−xⱼ) + 2ℓᵢₖ(xᵢ−xₖ),  ∂ℓ/∂xⱼ = −2ℓᵢⱼ(xᵢ−xⱼ),  ∂ℓ/∂xₖ = −2ℓᵢₖ(xᵢ−xₖ)
//
// into a per-thread gradient buffer, with no allocation per triplet. On amd64 with AVX2 and FMA the gather and scatter passes are
// assembly (kernel_amd64.s) that also prefetches the rows of coming
// triplets, rows being padded to a multiple of 8 floats so that the vector
// loops need no tails; elsewhere portable Go loops run. The buffers are then
// summed in thread order, fused with an AMSGrad Adam step (lib/optim). The
// batch is split statically among the threads, so a run is bit-for-bit
// reproducible for a fixed seed and thread count. The embedding, gradients
// and Adam state are float32; losses are accumulated in float64. The train
// error of the stopping rule runs through the same distance pass.
//
// The losses (paper section 2, with squared distances): SOE
// max(0, 1 + √dᵢⱼ − √dᵢₖ); STE −log(e^−dᵢⱼ/(e^−dᵢⱼ + e^−dᵢₖ)); t-STE the same
// with the Student-t kernel (1 + δ/α)^(−(α+1)/2), α = dim−1 by default; CKL-x
// −log((μ + dᵢₖ)/(2μ + dᵢⱼ + dᵢₖ)), μ = 0.01 by default (the authors' ckl_x).
// The authors' STE code uses unsquared distances inside the exponentials;
// we follow the paper's formula (and van der Maaten's original) instead.
//
// Training follows the authors' code (shared/paper/NOTES.md): initial X
// uniform in [0,1)^(n×d) (×0.1 for CKL-x), Adam with AMSGrad, learning rate 1,
// batches of min(#triplets, 1,000,000) consecutive triplets without shuffling,
// the loss summed (not averaged) over a batch. Unlike the authors' code, a
// last partial batch is not dropped. Runs stop by the paper's rule
// (embed.StopRule: every 50 epochs the train error on a fixed random subset of
// 100,000 training triplets is measured, also once before the first epoch, and
// the run stops when it changed by less than 0.005 since the previous check)
// or after MaxEpochs, 1000 by default.
//
// # GPU backend
//
// With Options.Backend "cuda" (or "auto" where CUDA works) the same training
// loop drives a GPU trainer instead of the CPU kernel, in a binary built
// with -tags cuda (make cuda; elsewhere it fails with "built without
// CUDA"). It runs on lib/cuda: the embedding, its gradient, Adam's moments
// and the triplets (int32) are copied to the device once; a step is one
// kernel computing every triplet's loss and partials (the functions of
// loss.go, ported) and scattering the gradient with atomicAdd, then one
// Adam kernel with lib/optim's step constants; only the batch loss comes
// back. The stopping rule's subset error and the divergence check also run
// on the device. Batches, initialisation, learning rate and stopping rule
// are the CPU's, so the two backends follow the same protocol; a GPU run
// is deterministic up to the order of its atomic additions, not bit for
// bit. FitGPU additionally draws the training triplets on the device and
// reports device memory and per-kernel times (oerun bench --gpu-suite).
package tripletloss
