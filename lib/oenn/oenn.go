package oenn

import (
	"context"
	"fmt"
	"math"

	"github.com/oe-lab/oe/lib/cuda"
	"github.com/oe-lab/oe/lib/embed"
)

// OENN is the ordinal embedding neural network. Its zero value is the
// paper's configuration. OENN is an estimator in the scikit-learn sense: Fit
// keeps the trained network, which Model returns, so that it can be saved
// and extended to new items. Do not call Fit on one value from several
// goroutines at once.
type OENN struct {
	// Width is the width w of the hidden layers; 0 means Width(n, d).
	Width int
	// Encoding is the input encoding of the items (Binary by default).
	Encoding Encoding
	// InputLen is the input length α; 0 means InputLength(n).
	InputLen int

	model *Model
}

var _ embed.Algorithm = (*OENN)(nil)

// Name returns the registry name "oenn".
func (*OENN) Name() string { return "oenn" }

// Shape returns the width of the hidden layers and the input length a Fit
// on n items in d dimensions uses: Width and InputLen, or where they are 0
// the paper's rules, Width(n, d) and InputLength(n).
func (o *OENN) Shape(n, d int) (width, inputLen int) {
	width, inputLen = o.Width, o.InputLen
	if width == 0 {
		width = Width(n, d)
	}
	if inputLen == 0 {
		inputLen = InputLength(n)
	}
	return width, inputLen
}

// Model returns the network trained by the last successful Fit, or nil.
func (o *OENN) Model() *Model { return o.model }

// Fit trains EmbNet on p.Train with Adam (AMSGrad), learning rate 0.005 and
// batches of min(#triplets, 50,000) reshuffled every epoch, stopping by
// opt.Stop, and returns the network's outputs for the p.Items() items. On
// the CPU the passes run on opt.Threads goroutines (0: GOMAXPROCS); results
// do not depend on their number. With opt.Backend
// cuda (or auto where CUDA works) the network trains on the GPU (lib/cuda):
// results then differ from the CPU's in rounding and vary in their last
// bits from run to run (the loss gradient is summed with atomic adds). On
// cancellation Fit returns the embedding reached so far, with
// StopCanceled, together with the context's error. On the CPU, a fit given
// opt.Checkpoint keeps its state there and resumes from it (see
// embed.Checkpoint).
func (o *OENN) Fit(ctx context.Context, p embed.Problem, opt embed.Options) (*embed.Result, error) {
	gpu, err := useGPU(opt.Backend)
	if err != nil {
		return nil, err
	}
	if err := p.Check(true); err != nil {
		return nil, err
	}
	n, d := p.Items(), p.Dim
	width, inLen := o.Shape(n, d)
	if width < 1 || inLen < 1 {
		return nil, fmt.Errorf("oenn: width (%d) and input length (%d) must be ≥ 1", width, inLen)
	}
	codes, err := newCodes(o.Encoding, n, inLen, newRNG(opt.Seed, streamCodes))
	if err != nil {
		return nil, err
	}
	net := newEmbNet(inLen, width, d)
	net.initialize(newRNG(opt.Seed, streamInit))
	set := p.Train
	if set.N != n {
		set = set.Slice(0, set.Len())
		set.N = n
	}
	t := &trainer{method: "oenn", net: net, codes: codes, set: set, gpu: gpu}
	res, err := t.run(ctx, opt)
	if err != nil {
		return res, err
	}
	o.model = &Model{codes: codes, net: net}
	return res, nil
}

func init() {
	embed.Register(embed.Info{
		Name: "oenn", Family: embed.FamilyNeural, Optimizers: []embed.Optimizer{embed.OptimizerAdam},
		// Version 2: the packed matrix products (gemm.go) sum in a different
		// order than version 1's axpy loops, so float32 results differ. The
		// cuda backend left CPU results unchanged. Version 3: AMSGrad is
		// lib/optim's, which divides √v̂ by √(1−β₂ᵗ) where oenn's own copy
		// multiplied by its float32 reciprocal: the steps round differently.
		// Version 4: binary codes are those of a random permutation of the
		// items (Binary), not of their order in the data (BinaryIndex), which
		// told the network which items lie together.
		Version:   4,
		Resumable: true,
		Backends:  map[embed.Backend]func() error{embed.BackendCUDA: cuda.Available},
		Params:    embed.Params{"width": 0, "input": 0, "inputlen": 0},
		ParamDocs: map[string]string{
			"width":    "width w of the three hidden layers (0: max(120, 2d·log₂n), the paper's rule)",
			"input":    "input encoding of the items: 0 binary code of the index in a random order of the items, 1 random code, 2 binary code of the index in the data's order (which leaks it)",
			"inputlen": "input length α, the bits of the code (0: ⌈log₂n⌉)",
		},
		Doc: "ordinal embedding neural network (3 ReLU layers of width max(120, 2d·log₂n) fed the binary code of the item's index in a random order of the items)",
		New: newFromParams,
	})
}

// useGPU resolves Options.Backend: cuda trains on the GPU, auto does where
// CUDA works in this binary on this machine, cpu (or "") does not.
func useGPU(name embed.Backend) (bool, error) {
	b, err := embed.ParseBackend(name)
	if err != nil {
		return false, fmt.Errorf("oenn: %w", err)
	}
	if b == embed.BackendAuto {
		return cuda.Available() == nil, nil
	}
	return b == embed.BackendCUDA, nil
}

// newFromParams builds an OENN from registry parameters: width (0 = the
// paper's rule), input (0 = binary code, 1 = random code, 2 = binary index
// code) and inputlen (0 = ⌈log₂ n⌉).
func newFromParams(p embed.Params) (embed.Algorithm, error) {
	width, err := intParam(p, "width")
	if err != nil {
		return nil, err
	}
	input, err := intParam(p, "input")
	if err != nil {
		return nil, err
	}
	inLen, err := intParam(p, "inputlen")
	if err != nil {
		return nil, err
	}
	enc := Encoding(input)
	if err := enc.check(); err != nil {
		return nil, err
	}
	return &OENN{Width: width, Encoding: enc, InputLen: inLen}, nil
}

// intParam returns parameter name as a non-negative integer (0 if absent).
func intParam(p embed.Params, name string) (int, error) {
	v := p.Get(name, 0)
	if v < 0 || v != math.Trunc(v) || v > 1<<30 {
		return 0, fmt.Errorf("oenn: parameter %s must be a non-negative integer, got %v", name, v)
	}
	return int(v), nil
}
