//go:build !cuda

package cuda

// Available returns nil when CUDA works in this binary on this machine,
// else why not: in this build, always ErrNotBuilt.
func Available() error { return ErrNotBuilt }
