package tripletloss

import (
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/triplets"
)

// GPURun configures FitGPU beyond embed.Options.
type GPURun struct {
	// Data, when set, makes the training set M triplets drawn on the GPU
	// from its rows (the items), as lib/triplets.Random draws them under
	// Noise, from TripletSeed: same distribution, different values. The
	// Problem then needs no Train. For sets too large to draw on the CPU
	// in good time (COVTYPE: 667 million triplets at λ = 2, d = 30).
	Data        *mat.Dense
	M           int
	Noise       triplets.Noise
	TripletSeed uint64
	// Timing times every kernel with CUDA events (GPUReport.Kernels), which
	// slows the run: use it for a breakdown, not for the headline time.
	Timing bool
}

// GPUReport describes a fit on the GPU.
type GPUReport struct {
	// Device names the GPU.
	Device string
	// PeakAllocated is the largest number of bytes the run's device
	// buffers held at once.
	PeakAllocated int64
	// DeviceUsed is the device's total minus free memory once the run's
	// buffers were allocated: PeakAllocated plus the CUDA context and
	// anything else on the device.
	DeviceUsed int64
	// Generate is the time drawing the triplets on the GPU took (zero
	// without GPURun.Data).
	Generate time.Duration
	// Kernels are the device times per kernel, longest first (with
	// GPURun.Timing).
	Kernels []KernelTime
}

// KernelTime is the device time of one kernel (or memset) over a run.
type KernelTime struct {
	Name  string
	Calls int
	Total time.Duration
}
