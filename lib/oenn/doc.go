// Package oenn implements the ordinal embedding neural network (OENN) of
// Vankadara et al., "Insights into Ordinal Embedding Algorithms: A
// Systematic Evaluation" (section 2 and appendix), with its out-of-sample
// extension.
//
// Each item is fed to EmbNet — three fully connected ReLU layers of width
// w = max(120, 2·d·log₂ n) and a linear output layer of size d — as the
// binary code of its index (length ⌈log₂ n⌉) or, alternatively, as a random
// code of the same length. The indices are those of a random order of the
// items, drawn from the seed: the paper means the inputs to be arbitrary,
// and the order items come in is not (a dataset sorted by class hands the
// network its clusters through the codes' leading bits: see BinaryIndex,
// which keeps the data's order). Three weight-shared copies of EmbNet embed
// the items of a triplet (i, j, k); training minimises the mean hinge loss
// max(0, ‖yᵢ−yⱼ‖² − ‖yᵢ−yₖ‖² + 1) with Adam (AMSGrad, as in the authors'
// code), learning rate 0.005 and batches of min(#triplets, 50,000). The
// logarithms are base 2, as in the authors' code.
//
// The network runs on the CPU in float32 (as the authors' PyTorch code
// does). Its matrix products are packed, cache-blocked GEMMs around an
// AVX-512 (12×32) or AVX2+FMA (6×16) register-tiled micro-kernel (gemm.go,
// gemm_amd64.s), split over embed.Options.Threads goroutines (0:
// GOMAXPROCS) in tasks of rows by columns of the product, fine enough that
// the weight gradients (w×w, summed over the batch's items) keep every
// thread busy, without changing the summation order, so results do not
// depend on the number of threads; the
// element-wise passes are lib/internal/asm's. A batch is processed by one
// forward and one backward pass over its distinct items rather than over
// 3·|batch| copies: the gradient of the shared weights is the same sum,
// and the cost per batch is bounded by n.
//
// # Reproducibility across machines
//
// The two assembly micro-kernels compute every entry of C as a chain of
// fused multiply-adds in the same order, and agree bit for bit with each
// other and with an exact emulation of that chain (gemm_amd64_test.go).
// The portable micro-kernel (microGo: other architectures, or the noasm
// build tag) rounds each product before adding it instead, so OENN's
// results there differ in the last bits from those on an AVX2 machine —
// unlike the other methods, whose assembly and Go twins agree bit for bit.
// Go has no float32 fused multiply-add (math.FMA is float64, and float64
// arithmetic rounds an FMA twice); the exact emulation costs 5.6 times the
// plain loop (measured on 96×256×256 products), too slow for a production
// kernel, and dropping FMA from the assembly would double the arithmetic
// instructions of its compute-bound loop.
//
// With the cuda backend (embed.Options.Backend, in a binary built with
// -tags cuda) the same training runs on an NVIDIA GPU through lib/cuda
// (gpu_cuda.go): the parameters, AMSGrad's moments and the activations stay
// on the device, each batch's distinct items and triplet rows are copied to
// it, and embeddings come back only at the stopping rule's checks and at
// the end. The batching, shuffling and stopping rule are the CPU's (one
// loop, train.go, over a backend interface); results agree with the CPU's
// to rounding. The out-of-sample extension runs on the CPU only.
//
// A CPU fit given embed.Options.Checkpoint writes its state (parameters,
// AMSGrad's moments and step, the shuffle stream and the triplets' order,
// the stopping rule's record, the trace, and within an epoch its batches
// done and their loss) between two batches at most every Checkpoint.Every,
// and when its context is cancelled (checkpoint.go); a fit started with the
// same Checkpoint goes on from it to the result an uninterrupted fit gives,
// bit for bit. OENN's runs are the paper profile's longest (hours to days on
// one core), longer than a session or a cluster job's time limit, and their
// epochs at USPS size and d = 50 take minutes to hours: a fit cut short
// loses none of its batches.
//
// OENN registers itself with lib/embed as "oenn". After Fit, (*OENN).Model
// returns the trained network, which can be saved (Model.Save, Load) and
// extended to new items (Model.Extend).
package oenn
