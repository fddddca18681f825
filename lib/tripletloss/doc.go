// Package tripletloss implements the ordinal embedding methods that minimise a
// sum of per-triplet losses directly over the embedding X: SOE, STE, t-STE and
// CKL-x (paper section 2, "Optimization over the Embedding"), and GNMDS-x,
// GNMDS's objective written over X as the paper writes it (its hinge on
// squared distances plus λ·tr(K) = λ‖X‖²_F), named as the paper names CKL-x.
// These are the factored forms of lib/gram's Gram-matrix methods
// (embed.Info.Factored): CKL-x of CKL, GNMDS-x of GNMDS, and STE of FORTE,
// whose logistic loss log(1 + e^(dᵢⱼ−dᵢₖ)) is STE's −log p, so FORTE's
// factored form is not written twice.
//
// All five share one fused, multi-threaded CPU kernel. Per block of 32
// consecutive triplets of a batch it gathers the rows xᵢ, xⱼ, xₖ and computes
// the squared distances dᵢⱼ and dᵢₖ; evaluates the method's loss ℓ(dᵢⱼ, dᵢₖ)
// and its partial derivatives ℓᵢⱼ = ∂ℓ/∂dᵢⱼ, ℓᵢₖ = ∂ℓ/∂dᵢₖ — the only
// per-method code, in loss.go; and adds up
//
//	∂ℓ/∂xᵢ = 2ℓᵢⱼ(xᵢ−xⱼ) + 2ℓᵢₖ(xᵢ−xₖ),  ∂ℓ/∂xⱼ = −2ℓᵢⱼ(xᵢ−xⱼ),  ∂ℓ/∂xₖ = −2ℓᵢₖ(xᵢ−xₖ)
//
// with no allocation per triplet, then takes an AMSGrad Adam step
// (lib/optim). On amd64 with AVX2 the distance and scatter loops are
// assembly (kernel_amd64.s) that prefetches the rows of coming triplets,
// rows being padded to a multiple of 8 floats so that the vector loops need
// no tails; elsewhere, or with the noasm build tag, their Go twins run. The
// embedding, gradients and Adam state are float32; losses are accumulated in
// float64. The train error of the stopping rule runs through the same
// distance pass.
//
// # Determinism
//
// A run gives the same embedding bit for bit for a fixed seed whatever the
// number of threads, and whether the assembly or the Go twins run: the
// kernel cuts its work into pieces whose sizes are constants and adds up
// every sum in an order those pieces fix (lib/internal/parallel). The
// gradient is added up one of two ways, chosen by the problem's size alone:
//
//   - Lanes (when 16 gradient buffers of n×d take at most 64 MiB, e.g. CHAR
//     and USPS): a batch is cut into 16 shares of consecutive triplets,
//     each added into its own buffer by one goroutine, triplet by triplet,
//     and the buffers are summed in share order, fused with the Adam step.
//   - Row blocks (larger n, where 16 buffers would not be sane: 1.2 GB at
//     n = 581,012, d = 30): a batch is processed in spans of 65,536
//     triplets; each chunk of 2,048 sorts its gradient terms by the block of
//     rows they add to, and then each row block is added up by one
//     goroutine, chunk by chunk in order, so that a row receives its terms
//     in an order fixed by the triplets. One gradient buffer suffices.
//
// The assembly and the Go twins perform the same float32 operations in the
// same order, with no fused multiply-adds: a product is rounded before it is
// added (the twins force this on Go with explicit float32 conversions, which
// the Go specification says prevent fusing), and the lanes of the vector
// distance sum combine as sqDistsGo spells out. Float32 FMA could not be
// emulated exactly by a portable twin (float64 arithmetic rounds the sum
// twice), and dropping it costs about nothing: the distance loop waits on
// memory, not on arithmetic. Across architectures SOE, GNMDS-x and STE are
// reproducible bit for bit: they use only +, −, ×, ÷ and √, which IEEE 754
// rounds correctly everywhere, and STE's softplus and sigmoid are
// lib/internal/numeric's own exponential and logarithm, built from those
// (asm.SoftplusSigmoids computes them four at a time, bit for bit). t-STE
// also calls math.Log1p and CKL-x math.Log, which Go computes with
// per-architecture code, so their results can differ in the last bits
// between machines.
//
// # Losses
//
// The losses (paper section 2, with squared distances): SOE
// max(0, 1 + √dᵢⱼ − √dᵢₖ); STE −log(e^−dᵢⱼ/(e^−dᵢⱼ + e^−dᵢₖ)); t-STE the same
// with the Student-t kernel (1 + δ/α)^(−(α+1)/2), α = dim−1 by default; CKL-x
// −log((μ + dᵢₖ)/(2μ + dᵢⱼ + dᵢₖ)), μ = 0.01 by default (the authors' ckl_x);
// GNMDS-x max(0, 1 + dᵢⱼ − dᵢₖ) plus λ‖X‖²_F, λ = 0 by default (GNMDS's in
// the paper). The ridge term is not per triplet: the kernel adds 2λx to the
// gradient as it completes it (kernel.gather), in its fixed chunks.
// The authors' STE code uses unsquared distances inside the exponentials;
// we follow the paper's formula (and van der Maaten's original) instead.
//
// Training follows the authors' code (evaluate-OE): initial X
// uniform in [0,1)^(n×d) (×0.1 for CKL-x), Adam with AMSGrad, learning rate 1,
// batches of min(#triplets, 1,000,000) consecutive triplets without shuffling,
// the loss summed (not averaged) over a batch. Unlike the authors' code, a
// last partial batch is not dropped. Runs stop by the paper's rule
// (embed.StopRule: every 50 epochs the train error on a fixed random subset of
// 100,000 training triplets is measured, also once before the first epoch, and
// the run stops when it changed by less than 0.005 since the previous check)
// or after MaxEpochs, 1000 by default.
//
// # Resuming
//
// The five methods resume (embed.Info.Resumable) when they run with Adam:
// given Options.Checkpoint, a CPU fit keeps its state between two batches
// (the embedding and the Adam moments, n×d float32 values each, the
// stopping rule's memory and the trace) and, started again, goes on where
// it stopped, taking the same steps bit for bit; CKL-x started from SOE's
// embedding does not fit SOE again. At 60,000 items and d = 50 (MNIST's
// paper-profile runs, FMNIST standing in) CKL-x's runs at λ = 2 took an
// hour and a half on one core, t-STE's more than two (cut by a budget of
// 115 minutes), as long as a session's budget or longer; their state is
// 48 MB there. L-BFGS fits (whose line
// search's memory is not kept) and GPU fits ignore the checkpoint.
//
// # L-BFGS
//
// With Options.Optimizer "lbfgs" the same loss (and kernel, so the same bits
// whatever the thread count) is minimised by L-BFGS on the full batch
// (lib/optim's wrapper of gonum/optimize), from the same initial embedding,
// as cblearn and van der Maaten's code minimise these objectives: one
// iteration (a line search of one or more loss and gradient passes) counts
// as an epoch for the stopping rule and MaxEpochs, and a line search that
// can no longer lower the loss at the kernel's float32 precision ends the
// run as converged. It takes no learning rate or batch size, and runs on the
// CPU only. On real data it is the better optimiser for CKL-x and GNMDS-x
// (bench/gram.md: material majority test error 0.134 and 0.139 against
// Adam's 0.142 and 0.142; CHAR, d = 30, CKL-x 0.158 against 0.165 and
// GNMDS-x 0.040 against 0.054).
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
