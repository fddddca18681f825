//go:build !cuda

package tripletloss

import (
	"context"
	"errors"

	"github.com/oe-lab/oe/lib/embed"
)

// errNoCUDA is what the cuda backend answers in a build without it.
var errNoCUDA = errors.New("cuda backend: this binary was built without CUDA (go build -tags cuda; make cuda)")

func cudaAvailable() error { return errNoCUDA }

func newGPUTrainer(lossFunc, []float32, int, int, float64, []int32, []int32) (trainer, error) {
	return nil, errNoCUDA
}

// FitGPU fits alg (SOE, STE, t-STE or CKL-x) on the cuda backend and
// reports on the device. This build has no CUDA: it always fails.
func FitGPU(context.Context, embed.Algorithm, embed.Problem, embed.Options, GPURun) (*embed.Result, *GPUReport, error) {
	return nil, nil, errNoCUDA
}
