package oenn

import (
	"github.com/oe-lab/oe/lib/internal/parallel"
	"github.com/oe-lab/oe/lib/optim"
)

// backend is where EmbNet trains: the CPU (cpuNet) or, in cuda builds, the
// GPU (gpuNet, gpu_cuda.go). It holds the parameters, the optimiser state
// and the activations; the trainer's loop (batches, the gather of their
// distinct items, divergence, the stopping rule) is shared.
type backend interface {
	// step does one AMSGrad step on a batch and returns its summed hinge
	// loss. The batch's embedding matrix has one row per distinct item:
	// first the trainable items train, then the fixed items fixed (both as
	// item indices of the triplet set: trainable item q is embedded from
	// code q−nFixed); rows are the batch's triplets as rows of that matrix,
	// three per triplet, and scale = 1/#triplets weighs the gradient. When
	// the loss is not finite, step leaves the parameters as they are: the
	// run fails as diverged.
	step(train, fixed, rows []int32, scale float32) (float64, error)
	// embed writes the embedding of every trainable item, in code order,
	// into dst.
	embed(dst []float32) error
	// sync leaves the trained parameters in the trainer's net.params, for
	// the Model that Fit keeps.
	sync() error
	// close releases what the backend holds (device memory).
	close()
}

// cpuNet is the CPU backend: the network's own parameters, trained in
// place, and one workspace of activations.
type cpuNet struct {
	net    *embNet
	codes  *codes
	nFixed int
	fixed  []float32 // nFixed×dim embeddings of the fixed items
	ws     *workspace
	comb   []float32 // batch embeddings: trainable rows, then fixed rows
	dcomb  []float32 // their gradients
	adam   *optim.Adam[float32]
}

// newCPUNet prepares t's network for batches of up to rows distinct
// trainable items and fixedRows distinct fixed ones, learning rate lr, on
// threads goroutines (≤ 0: GOMAXPROCS).
func newCPUNet(t *trainer, rows, fixedRows int, lr float64, threads int) (*cpuNet, error) {
	d := t.net.dim
	adam, err := optim.NewAdam[float32](len(t.net.params), lr)
	if err != nil {
		return nil, err
	}
	return &cpuNet{
		net: t.net, codes: t.codes, nFixed: t.nFixed, fixed: t.fixed,
		ws:    t.net.newWorkspace(rows, threads),
		comb:  make([]float32, (rows+fixedRows)*d),
		dcomb: make([]float32, (rows+fixedRows)*d),
		adam:  adam,
	}, nil
}

func (c *cpuNet) step(train, fixed, rows []int32, scale float32) (float64, error) {
	d, in := c.net.dim, c.net.in
	ws := c.ws
	u := len(train)
	parallel.ForChunks(ws.threads, len(train), 1<<12, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			c.codes.put(ws.x[r*in:(r+1)*in], int(train[r])-c.nFixed)
		}
	})
	for r, q := range fixed {
		copy(c.comb[(u+r)*d:(u+r+1)*d], c.fixed[int(q)*d:(int(q)+1)*d])
	}
	c.net.forward(ws, u)
	copy(c.comb[:u*d], ws.y[:u*d])
	used := (u + len(fixed)) * d
	sum := hinge(c.comb[:used], d, rows, scale, c.dcomb[:used])
	if !finiteLoss(sum) {
		return sum, nil
	}
	copy(ws.dy[:u*d], c.dcomb[:u*d])
	c.net.backward(ws, u)
	if err := c.adam.NextStep(); err != nil {
		return 0, err
	}
	// Every parameter is updated independently, so the ranges can run on
	// any number of goroutines without changing the result.
	parallel.ForChunks(c.ws.threads, len(c.net.params), 1<<13, func(_, lo, hi int) {
		c.adam.UpdateRange(c.net.params[lo:hi], ws.grad[lo:hi], lo)
	})
	return sum, nil
}

func (c *cpuNet) embed(dst []float32) error {
	embedItems(c.net, c.codes, c.ws, dst)
	return nil
}

func (c *cpuNet) sync() error { return nil }

func (c *cpuNet) close() {}
