//go:build !cuda

package tripletloss

import (
	"context"

	"github.com/oe-lab/oe/lib/cuda"
	"github.com/oe-lab/oe/lib/embed"
)

func newGPUTrainer(lossFunc, float64, []float32, int, int, float64, []int32, []int32) (trainer, error) {
	return nil, cuda.ErrNotBuilt
}

// FitGPU fits alg (SOE, STE, t-STE, CKL-x or GNMDS-x) on the cuda backend and
// reports on the device. This build has no CUDA: it always fails.
func FitGPU(context.Context, embed.Algorithm, embed.Problem, embed.Options, GPURun) (*embed.Result, *GPUReport, error) {
	return nil, nil, cuda.ErrNotBuilt
}
