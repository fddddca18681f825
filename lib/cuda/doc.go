// Package cuda is oe's GPU layer: a CUDA context on one device, device
// buffers, and the device code of the methods that run on a GPU, each
// kernel the port of a CPU function that stays in the method's package:
//
//   - the triplet-loss methods (lib/tripletloss): the fused gradient of
//     SOE, STE, t-STE, CKL-x and GNMDS-x (tl_grad, its losses those of
//     loss.go), GNMDS-x's ridge term (tl_ridge), the triplet error (tl_violations), the divergence check (nonfinite)
//     and the stopping rule's subset (gather_triplets);
//   - OENN (lib/oenn): EmbNet's matrix products (sgemm), bias and ReLU,
//     bias gradients, hinge loss and input codes (oenn.go);
//   - shared by both: the AMSGrad step of lib/optim (adam_step) and the
//     paper's triplet generation of lib/triplets (gen_triplets, for
//     lib/tripletloss's FitGPU).
//
// The methods' packages own their training loops and call the wrappers
// here; the kernels' shapes (loss kinds, network layout) are theirs. The
// Gram methods (lib/gram) and the active methods (lib/landmark) run on the
// CPU only: --backend cuda for them fails with embed.ErrNotSupported.
//
// Everything but this file (and the test of the PTX stamp) is behind the
// build tag cuda, so an ordinary build neither needs nor links any CUDA
// code. `go build -tags cuda` needs
// the CUDA driver API header cuda.h (Debian: nvidia-cuda-dev; NVIDIA's
// installer: /usr/local/cuda/include) and nothing else: not nvcc, since the
// kernels' PTX is committed (kernels.ptx) and embedded, and not libcuda at
// link time, since the driver library libcuda.so.1 is opened with dlopen on
// first use. A cuda build therefore starts on any machine, and without the
// NVIDIA driver or a device Open returns an error that says which is
// missing. (gorgonia.org/cu, the binding first planned, links libcuda and
// calls os.Exit(1) from its package initialiser when cuInit fails, so a
// binary using it cannot even run on the CPU of a machine without a GPU.)
//
// The PTX targets compute capability 7.0 (Volta) and is compiled to the
// device's instruction set by the driver when the module loads; it needs a
// driver of CUDA 11.8 or newer (PTX ISA 7.8). Regenerate it after editing
// kernels.cu with
//
//	go generate ./lib/cuda
//
// which runs nvcc (internal/ptxgen) and stamps the SHA-256 of kernels.cu
// into the PTX's first line; a test without nvcc or the cuda tag checks the
// stamp against kernels.cu, and .ci/run regenerates the PTX where nvcc
// exists and requires it unchanged (nvcc 11.8.89 made the committed one).
//
// Kernels are compiled with -fmad=false so that their float arithmetic
// rounds as Go's does; every kernel has a CPU twin in the Go code (named in
// its wrapper's comment) and a parity test that runs where a device answers
// and skips elsewhere.
//
// Thread safety: a Context serialises its calls with a mutex and makes its
// CUDA context current on the calling OS thread for the duration of each
// call, so it may be used from any goroutine, but calls never overlap. All
// work goes to the device's legacy default stream, so kernels and copies run
// in the order they were issued; copies to the host wait for the work before
// them.
package cuda

//go:generate go run ./internal/ptxgen
