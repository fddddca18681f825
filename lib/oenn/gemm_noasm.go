//go:build !amd64 || noasm

package oenn

// bestKernel is the portable micro-kernel: there is no assembly for this
// architecture, or the noasm build tag dropped it.
func bestKernel() microKernel { return microGo(6, 16) }
