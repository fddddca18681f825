//go:build cuda

package oenn

import (
	"errors"
	"fmt"

	"github.com/oe-lab/oe/lib/cuda"
	"github.com/oe-lab/oe/lib/optim"
)

// gpuNet is the cuda backend: the parameters, their gradient, AMSGrad's
// moments and the activations of one batch live on the device. A step
// copies the batch's distinct items and triplet rows to the device and
// reads back only the loss; embed copies embeddings back (at the stopping
// rule's checks and at the end), sync the parameters (at the end).
type gpuNet struct {
	c     *cuda.Context
	net   *embNet // shapes, and where sync leaves the parameters
	codes *codes
	rows  int // items per pass: the batch's distinct items, or a chunk of embed
	// p are the parameters in net.params' layout, g their gradient, m, v,
	// vmax AMSGrad's moments.
	p, g, m, v, vmax *cuda.Buffer[float32]
	// x (rows×in), h (rows×width), y and dy (rows×dim) and da (rows×width)
	// are workspace's activations and gradients, in the same roles.
	x, y, dy *cuda.Buffer[float32]
	h        [hiddenLayers]*cuda.Buffer[float32]
	da       [2]*cuda.Buffer[float32]
	// scratch is ColumnSums' (nil when batches are short enough not to
	// need one), table the code table (nil for binary index codes).
	scratch, table *cuda.Buffer[float32]
	// items lists a pass's items (code indices); tri a batch's triplets as
	// rows of y.
	items, tri *cuda.Buffer[int32]
	// wOff and bOff are the offsets of each layer's weights and biases in p.
	wOff, bOff [hiddenLayers + 1]int
	// adam, of size 0, keeps the step count and computes each step's
	// constants as the CPU's does.
	adam *optim.Adam[float32]
	// chunk is embed's host list of item indices.
	chunk []int32
}

// newGPUNet uploads net's parameters and c's code table and allocates
// room for passes over up to rows items and batches of up to batch
// triplets, learning rate lr.
func newGPUNet(net *embNet, c *codes, rows, batch int, lr float64) (backend, error) {
	ctx, err := cuda.Shared()
	if err != nil {
		return nil, fmt.Errorf("cuda backend: %w", err)
	}
	adam, err := optim.NewAdam[float32](0, lr)
	if err != nil {
		return nil, err
	}
	g := &gpuNet{c: ctx, net: net, codes: c, rows: rows, adam: adam, chunk: make([]int32, rows)}
	off := 0
	for l, ly := range net.layers {
		g.wOff[l], g.bOff[l] = off, off+ly.in*ly.out
		off += ly.in*ly.out + ly.out
	}
	fail := func(err error) (backend, error) {
		g.close()
		return nil, err
	}
	if g.p, err = cuda.Upload(ctx, net.params); err != nil {
		return fail(fmt.Errorf("oenn: the network's %d parameters on the device: %w", len(net.params), err))
	}
	if c.table != nil {
		if g.table, err = cuda.Upload(ctx, c.table); err != nil {
			return fail(fmt.Errorf("oenn: the code table on the device: %w", err))
		}
	}
	type buffer struct {
		b    **cuda.Buffer[float32]
		size int
		name string
	}
	sizes := []buffer{
		{&g.g, len(net.params), "gradient"}, {&g.m, len(net.params), "AMSGrad's first moment"},
		{&g.v, len(net.params), "AMSGrad's second moment"}, {&g.vmax, len(net.params), "AMSGrad's largest second moment"},
		{&g.x, rows * net.in, "input codes"}, {&g.y, rows * net.dim, "outputs"}, {&g.dy, rows * net.dim, "outputs' gradient"},
		{&g.h[0], rows * net.width, "hidden layer 1"}, {&g.h[1], rows * net.width, "hidden layer 2"},
		{&g.h[2], rows * net.width, "hidden layer 3"},
		{&g.da[0], rows * net.width, "hidden gradient 1"}, {&g.da[1], rows * net.width, "hidden gradient 2"},
	}
	if need := cuda.ColumnSumsScratch(rows, max(net.width, net.dim)); need > 0 {
		sizes = append(sizes, buffer{&g.scratch, need, "column-sum scratch"})
	}
	for _, s := range sizes {
		if *s.b, err = cuda.Alloc[float32](ctx, s.size); err != nil {
			return fail(fmt.Errorf("oenn: the %s on the device: %w", s.name, err))
		}
	}
	if g.items, err = cuda.Alloc[int32](ctx, rows); err != nil {
		return fail(fmt.Errorf("oenn: the batch's item list on the device: %w", err))
	}
	if g.tri, err = cuda.Alloc[int32](ctx, 3*batch); err != nil {
		return fail(fmt.Errorf("oenn: the batch's triplets on the device: %w", err))
	}
	return g, nil
}

// input returns the input of layer l: the codes or a hidden layer's output.
func (g *gpuNet) input(l int) *cuda.Buffer[float32] {
	if l == 0 {
		return g.x
	}
	return g.h[l-1]
}

// forward maps the first r rows of x to y, keeping the activations for
// backward (CPU twin: embNet.forward).
func (g *gpuNet) forward(r int) error {
	for l, ly := range g.net.layers {
		dst := g.y
		if l < hiddenLayers {
			dst = g.h[l]
		}
		err := g.c.Gemm(r, ly.out, ly.in, cuda.Mat{Buf: g.input(l), Stride: ly.in},
			cuda.Mat{Buf: g.p, Off: g.wOff[l], Stride: ly.out}, cuda.Mat{Buf: dst, Stride: ly.out}, false)
		if err != nil {
			return err
		}
		if err := g.c.BiasReLU(dst, r, ly.out, g.p, g.bOff[l], l < hiddenLayers); err != nil {
			return err
		}
	}
	return nil
}

// backward computes the parameters' gradient g from ∂loss/∂y in the first r
// rows of dy (CPU twin: embNet.backward). Every entry of g is overwritten,
// so it needs no zeroing.
func (g *gpuNet) backward(r int) error {
	delta := g.dy // ∂loss/∂(output of layer l before ReLU)
	for l := hiddenLayers; l >= 0; l-- {
		ly, src := g.net.layers[l], g.input(l)
		// ∂W = srcᵀ·delta, ∂b = column sums of delta.
		err := g.c.Gemm(ly.in, ly.out, r, cuda.Mat{Buf: src, Stride: ly.in, Trans: true},
			cuda.Mat{Buf: delta, Stride: ly.out}, cuda.Mat{Buf: g.g, Off: g.wOff[l], Stride: ly.out}, false)
		if err != nil {
			return err
		}
		if err := g.c.ColumnSums(delta, r, ly.out, g.scratch, g.g, g.bOff[l]); err != nil {
			return err
		}
		if l == 0 {
			break // the input codes are constants: no gradient needed
		}
		// ∂(layer input) = delta·Wᵀ, masked by the ReLU that produced it.
		next := g.da[l%2]
		err = g.c.Gemm(r, ly.in, ly.out, cuda.Mat{Buf: delta, Stride: ly.out},
			cuda.Mat{Buf: g.p, Off: g.wOff[l], Stride: ly.out, Trans: true}, cuda.Mat{Buf: next, Stride: ly.in}, false)
		if err != nil {
			return err
		}
		if err := g.c.MaskReLU(next, src, r*ly.in); err != nil {
			return err
		}
		delta = next
	}
	return nil
}

// codesOf writes the codes of the first r entries of items into x.
func (g *gpuNet) codesOf(r int) error {
	return g.c.OENNCodes(g.items, r, g.net.in, g.table, g.x)
}

func (g *gpuNet) step(train, fixed, rows []int32, scale float32) (float64, error) {
	if len(fixed) > 0 {
		return 0, errors.New("cuda backend: fixed items (the out-of-sample extension) are not supported")
	}
	u := len(train)
	if err := g.items.CopyFromAt(0, train); err != nil {
		return 0, err
	}
	if err := g.tri.CopyFromAt(0, rows); err != nil {
		return 0, err
	}
	if err := g.codesOf(u); err != nil {
		return 0, err
	}
	if err := g.forward(u); err != nil {
		return 0, err
	}
	if err := g.dy.Zero(); err != nil {
		return 0, err
	}
	sum, err := g.c.OENNHinge(g.y, u, g.net.dim, g.tri, len(rows)/3, scale, g.dy)
	if err != nil || !finiteLoss(sum) {
		return sum, err
	}
	if err := g.backward(u); err != nil {
		return 0, err
	}
	if err := g.adam.NextStep(); err != nil {
		return 0, err
	}
	return sum, g.c.AdamStep(g.p, g.g, g.m, g.v, g.vmax, cuda.Adam(g.adam.Constants()))
}

// embed runs the network over all items in chunks of rows (CPU twin:
// embedItems) and copies each chunk's embedding back.
func (g *gpuNet) embed(dst []float32) error {
	d := g.net.dim
	for from := 0; from < g.codes.n; from += g.rows {
		to := min(from+g.rows, g.codes.n)
		list := g.chunk[:to-from]
		for r := range list {
			list[r] = int32(from + r)
		}
		if err := g.items.CopyFromAt(0, list); err != nil {
			return err
		}
		if err := g.codesOf(to - from); err != nil {
			return err
		}
		if err := g.forward(to - from); err != nil {
			return err
		}
		if err := g.y.CopyToAt(0, dst[from*d:to*d]); err != nil {
			return err
		}
	}
	return nil
}

func (g *gpuNet) sync() error { return g.p.CopyTo(g.net.params) }

// close frees the device buffers. Errors are dropped: by then the run's
// result (or its own error) is what matters, and a failed free of a live
// context cannot be acted on. Free ignores the buffers never allocated.
func (g *gpuNet) close() {
	for _, b := range []*cuda.Buffer[float32]{g.p, g.g, g.m, g.v, g.vmax, g.x, g.y, g.dy, g.h[0], g.h[1], g.h[2],
		g.da[0], g.da[1], g.scratch, g.table} {
		_ = b.Free()
	}
	_ = g.items.Free()
	_ = g.tri.Free()
}
