//go:build !amd64

package oenn

// bestKernel is the portable micro-kernel: there is no assembly for this
// architecture.
func bestKernel() microKernel { return microGo(6, 16) }
