//go:build !cuda

package oenn

import "errors"

// errNoCUDA is what the cuda backend answers in a build without it.
var errNoCUDA = errors.New("cuda backend: this binary was built without CUDA (go build -tags cuda; make cuda)")

func cudaAvailable() error { return errNoCUDA }

func newGPUNet(*embNet, *codes, int, int, float64) (backend, error) { return nil, errNoCUDA }
