package cuda

import "errors"

// ErrNotBuilt is what the cuda backend answers in a binary built without
// the cuda tag: Available returns it, and so do the GPU entry points of
// lib/tripletloss and lib/oenn there.
var ErrNotBuilt = errors.New("cuda backend: this binary was built without CUDA (go build -tags cuda; make cuda)")
