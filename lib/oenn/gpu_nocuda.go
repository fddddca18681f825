//go:build !cuda

package oenn

import "github.com/oe-lab/oe/lib/cuda"

func newGPUNet(*embNet, *codes, int, int, float64) (backend, error) { return nil, cuda.ErrNotBuilt }
