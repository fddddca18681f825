//go:build cuda

package tripletloss

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/cuda"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/optim"
	"github.com/oe-lab/oe/lib/triplets"
)

// gpuContext is the process's shared context on device 0 (cuda.Shared),
// with errors prefixed for this backend.
func gpuContext() (*cuda.Context, error) {
	ctx, err := cuda.Shared()
	if err != nil {
		return nil, fmt.Errorf("cuda backend: %w", err)
	}
	return ctx, nil
}

// cudaLoss maps a method's loss to the kernel's.
func cudaLoss(l lossFunc) cuda.Loss {
	kinds := map[kind]cuda.LossKind{kindSOE: cuda.LossSOE, kindSTE: cuda.LossSTE, kindTSTE: cuda.LossTSTE, kindCKLX: cuda.LossCKLX,
		kindGNMDSX: cuda.LossGNMDSX}
	return cuda.Loss{Kind: kinds[l.kind], Param: l.param}
}

// gpuTrainer is the cuda backend: the embedding, its gradient, the Adam
// moments and the triplets live on the device; a step is a memset, the
// fused gradient kernel and the Adam kernel, and reads back only the loss.
type gpuTrainer struct {
	c    *cuda.Context
	n, d int
	loss cuda.Loss
	// ridge is λ of the loss's term λ‖X‖² (GNMDS-x).
	ridge float64
	// x is the n×d embedding (unpadded), g its gradient, m, v, vmax Adam's
	// moments.
	x, g, m, v, vmax *cuda.Buffer[float32]
	// idx are the training triplets; subset the stopping rule's (idx itself
	// when it is all of them).
	idx, subset *cuda.Buffer[int32]
	// adam, of size 0, keeps the step count and computes each step's
	// constants as the CPU's Adam does.
	adam *optim.Adam[float32]
}

// newGPUTrainer uploads the triplets idx and starts from x0, with the ridge
// term λ‖X‖²; sel are the positions of the stopping rule's subset (nil:
// all).
func newGPUTrainer(loss lossFunc, ridge float64, x0 []float32, n, d int, lr float64, idx, sel []int32) (trainer, error) {
	c, err := gpuContext()
	if err != nil {
		return nil, err
	}
	buf, err := cuda.Upload(c, idx)
	if err != nil {
		return nil, fmt.Errorf("the %d training triplets: %w", len(idx)/3, err)
	}
	return gpuTrainerOn(c, loss, ridge, x0, n, d, lr, buf, sel)
}

// gpuTrainerOn starts from x0 on the device triplets idx, which it owns
// from then on (and frees on failure).
func gpuTrainerOn(c *cuda.Context, loss lossFunc, ridge float64, x0 []float32, n, d int, lr float64, idx *cuda.Buffer[int32], sel []int32) (trainer, error) {
	if len(x0) != n*d {
		_ = idx.Free()
		return nil, fmt.Errorf("initial embedding of %d values for %d×%d", len(x0), n, d)
	}
	adam, err := optim.NewAdam[float32](0, lr)
	if err != nil {
		_ = idx.Free()
		return nil, err
	}
	t := &gpuTrainer{c: c, n: n, d: d, loss: cudaLoss(loss), ridge: ridge, idx: idx, subset: idx, adam: adam}
	fail := func(err error) (trainer, error) {
		t.close()
		return nil, err
	}
	if t.x, err = cuda.Upload(c, x0); err != nil {
		return fail(fmt.Errorf("the %d×%d embedding: %w", n, d, err))
	}
	for _, b := range []struct {
		buf  **cuda.Buffer[float32]
		name string
	}{{&t.g, "gradient"}, {&t.m, "Adam's first moment"}, {&t.v, "Adam's second moment"}, {&t.vmax, "Adam's largest second moment"}} {
		if *b.buf, err = cuda.Alloc[float32](c, n*d); err != nil {
			return fail(fmt.Errorf("the embedding's %s (%d×%d): %w", b.name, n, d, err))
		}
	}
	if sel != nil {
		dsel, err := cuda.Upload(c, sel)
		if err != nil {
			return fail(err)
		}
		defer func() { _ = dsel.Free() }() // a leak of the list is no reason to fail the run
		if t.subset, err = cuda.Alloc[int32](c, 3*len(sel)); err != nil {
			t.subset = idx
			return fail(fmt.Errorf("the stopping rule's %d triplets: %w", len(sel), err))
		}
		if err := c.GatherTriplets(idx, dsel, sel, t.subset); err != nil {
			return fail(err)
		}
	}
	return t, nil
}

func (t *gpuTrainer) step(from, to int) (float64, error) {
	if err := t.g.Zero(); err != nil {
		return 0, err
	}
	loss, err := t.c.TripletGrad(t.x, t.n, t.d, t.idx, from, to, t.loss, t.g)
	if err != nil {
		return 0, err
	}
	if t.ridge != 0 {
		sq, err := t.c.Ridge(t.x, t.ridge, t.g)
		if err != nil {
			return 0, err
		}
		loss += t.ridge * sq
	}
	if err := t.adam.NextStep(); err != nil {
		return 0, err
	}
	return loss, t.c.AdamStep(t.x, t.g, t.m, t.v, t.vmax, cuda.Adam(t.adam.Constants()))
}

func (t *gpuTrainer) subsetError() (float64, error) {
	m := t.subset.Len() / 3
	bad, err := t.c.Violations(t.x, t.n, t.d, t.subset, 0, m) // triplets.Violated's rule
	if err != nil {
		return 0, err
	}
	return float64(bad) / float64(m), nil
}

func (t *gpuTrainer) finite() (bool, error) {
	bad, err := t.c.NonFinite(t.x)
	return bad == 0, err
}

func (t *gpuTrainer) embedding() ([]float64, error) {
	x := make([]float32, t.n*t.d)
	if err := t.x.CopyTo(x); err != nil {
		return nil, err
	}
	out := make([]float64, len(x))
	for e, v := range x {
		out[e] = float64(v)
	}
	return out, nil
}

func (t *gpuTrainer) dim() int { return t.d }

// close frees the device buffers. Errors are dropped: by then the run's
// result (or its own error) is what matters, and a failed free of a live
// context cannot be acted on.
func (t *gpuTrainer) close() {
	if t.subset != t.idx {
		_ = t.subset.Free()
	}
	for _, b := range []*cuda.Buffer[float32]{t.x, t.g, t.m, t.v, t.vmax} {
		_ = b.Free()
	}
	_ = t.idx.Free()
}

// FitGPU fits alg (SOE, STE, t-STE, CKL-x or GNMDS-x) with Adam on the
// cuda backend, whatever opt.Backend says, and reports on the device: memory, and with g.Timing
// the time per kernel. With g.Data the training triplets are drawn on the
// GPU (see GPURun) and p.Train is ignored; p.N must then be 0 or the
// number of rows of g.Data.
func FitGPU(ctx context.Context, alg embed.Algorithm, p embed.Problem, opt embed.Options, g GPURun) (*embed.Result, *GPUReport, error) {
	meth, ok := alg.(method)
	if !ok {
		return nil, nil, fmt.Errorf("tripletloss: %s is not a triplet-loss method", alg.Name())
	}
	r, err := meth.resolve(p.Dim)
	if err != nil {
		return nil, nil, err
	}
	c, err := gpuContext()
	if err != nil {
		return nil, nil, err
	}
	c.ResetPeak()
	c.SetTiming(g.Timing)
	defer c.SetTiming(false)
	rep := &GPUReport{Device: c.Device().String()}
	// The device is fullest during the first epoch: all buffers are live.
	progress := opt.Progress
	opt.Progress = func(e embed.Epoch) {
		if e.Epoch == 1 {
			if free, total, err := c.MemInfo(); err == nil {
				rep.DeviceUsed = total - free
			}
		}
		if progress != nil {
			progress(e)
		}
	}
	opt.Backend = embed.BackendCUDA
	var res *embed.Result
	if g.Data == nil {
		res, err = r.fit(ctx, p, opt)
	} else {
		res, err = r.fitGenerated(ctx, c, p, opt, g, rep)
	}
	rep.PeakAllocated = c.PeakAllocated()
	for _, t := range c.Timings() {
		rep.Kernels = append(rep.Kernels, KernelTime(t))
	}
	return res, rep, err
}

// fitGenerated is fit on g.M triplets drawn on the device from g.Data.
func (r run) fitGenerated(ctx context.Context, c *cuda.Context, p embed.Problem, opt embed.Options, g GPURun, rep *GPUReport) (*embed.Result, error) {
	start := time.Now()
	n, _ := g.Data.Dims()
	switch {
	case p.Dim < 1:
		return nil, fmt.Errorf("%s: embedding dimension must be ≥ 1, got %d", r.name, p.Dim)
	case p.N != 0 && p.N != n:
		return nil, fmt.Errorf("%s: n = %d but the data has %d rows", r.name, p.N, n)
	case g.M < 1:
		return nil, fmt.Errorf("%s: %d triplets to draw, need ≥ 1", r.name, g.M)
	}
	if err := g.Noise.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}
	set, err := r.settings(opt, g.M)
	if err != nil {
		return nil, err
	}
	if _, err := r.backend(embed.BackendCUDA, set.optimizer); err != nil {
		return nil, err
	}
	idx, err := drawTriplets(c, g.Data, g.M, g.Noise, g.TripletSeed)
	if err != nil {
		return nil, fmt.Errorf("%s: drawing triplets on the GPU: %w", r.name, err)
	}
	rep.Generate = time.Since(start)
	sel := subsetPositions(g.M, opt.Stop.OrDefault().SubsetSize, opt.Seed)
	tr, err := gpuTrainerOn(c, r.loss, r.ridge, initialEmbedding(n, p.Dim, r.initScale, opt.Seed), n, p.Dim, set.lr, idx, sel)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}
	defer tr.close()
	return r.train(ctx, tr, g.M, set, opt, start, nil, nil)
}

// drawTriplets draws m triplets from the rows of x on the device; the data
// is freed once they are drawn.
func drawTriplets(c *cuda.Context, x *mat.Dense, m int, noise triplets.Noise, seed uint64) (*cuda.Buffer[int32], error) {
	n, dim := x.Dims()
	raw := x.RawMatrix()
	data := raw.Data
	if raw.Stride != dim {
		data = mat.DenseCopyOf(x).RawMatrix().Data
	}
	model := map[triplets.NoiseModel]cuda.NoiseModel{triplets.NoNoise: cuda.NoNoise,
		triplets.Bernoulli: cuda.Bernoulli, triplets.Gaussian: cuda.Gaussian}
	nm, ok := model[noise.Model]
	if !ok {
		return nil, fmt.Errorf("noise model %q has no GPU twin", noise.Model)
	}
	dx, err := cuda.Upload(c, data[:n*dim])
	if err != nil {
		return nil, fmt.Errorf("the %d×%d data: %w", n, dim, err)
	}
	defer func() { _ = dx.Free() }()
	idx, err := cuda.Alloc[int32](c, 3*m)
	if err != nil {
		return nil, fmt.Errorf("the %d training triplets to draw: %w", m, err)
	}
	if err := c.GenerateTriplets(dx, n, dim, seed, nm, noise.Level, idx); err != nil {
		return nil, errors.Join(err, idx.Free())
	}
	return idx, nil
}
