package tripletloss

import "github.com/oe-lab/oe/lib/internal/numeric"

// trainer is one backend's state of a fit: the embedding, the optimiser,
// the training triplets and the stopping rule's subset. The CPU kernel
// (cpuTrainer) and, in cuda builds, the GPU (gpuTrainer) implement it; fit's
// loop (run.train) is shared.
type trainer interface {
	// step does one optimisation step on the training triplets [from, to)
	// and returns their summed loss.
	step(from, to int) (float64, error)
	// subsetError returns the triplet error of the embedding on the
	// stopping rule's subset (triplets.Violated: ties count as violated).
	subsetError() (float64, error)
	// finite reports whether every entry of the embedding is finite.
	finite() (bool, error)
	// embedding returns the n×d embedding, row-major, in float64.
	embedding() ([]float64, error)
	// dim returns d.
	dim() int
	// close releases what the trainer holds (device memory); idempotent.
	close()
}

// cpuTrainer is the CPU backend: the fused kernel over host triplets.
type cpuTrainer struct {
	k *kernel
	// idx are the training triplets, subset the stopping rule's (copied
	// out of idx, or idx itself when it is all of them).
	idx, subset []int32
}

// newCPUTrainer starts from the n×d embedding x0 on the triplets idx, with
// the ridge term λ‖X‖² and the stopping rule's subset at positions sel
// (nil: all of idx).
func newCPUTrainer(loss lossFunc, ridge float64, x0 []float32, n, d, threads int, lr float64, idx, sel []int32) (*cpuTrainer, error) {
	k, err := newKernel(loss, x0, n, d, threads, lr)
	if err != nil {
		return nil, err
	}
	k.ridge = ridge
	return &cpuTrainer{k: k, idx: idx, subset: subsetTriplets(idx, sel)}, nil
}

// subsetTriplets copies the triplets at positions sel out of idx; idx
// itself when sel is nil.
func subsetTriplets(idx, sel []int32) []int32 {
	if sel == nil {
		return idx
	}
	sub := make([]int32, 3*len(sel))
	for s, t := range sel {
		copy(sub[3*s:3*s+3], idx[3*t:3*t+3])
	}
	return sub
}

func (c *cpuTrainer) step(from, to int) (float64, error) { return c.k.step(c.idx[3*from : 3*to]) }

// lossGrad returns the loss over all training triplets at the n×d
// embedding x (row-major, float64; evaluated at its float32 rounding) and
// sets grad to its gradient: the objective of L-BFGS. The trainer's
// embedding becomes x.
func (c *cpuTrainer) lossGrad(grad, x []float64) float64 {
	c.setEmbedding(x)
	k := c.k
	loss := k.lossGrad(c.idx)
	for i := 0; i < k.n; i++ {
		row := k.g[i*k.stride : i*k.stride+k.d]
		for col, v := range row {
			grad[i*k.d+col] = float64(v)
		}
		clear(row)
	}
	return loss
}

// setEmbedding sets the embedding to the n×d row-major x, rounded to
// float32.
func (c *cpuTrainer) setEmbedding(x []float64) {
	k := c.k
	for i := 0; i < k.n; i++ {
		row := k.x[i*k.stride : i*k.stride+k.d]
		for col := range row {
			row[col] = float32(x[i*k.d+col])
		}
	}
}

func (c *cpuTrainer) subsetError() (float64, error) { return c.k.tripletError(c.subset), nil }

func (c *cpuTrainer) finite() (bool, error) { return numeric.AllFinite(c.k.x), nil }

func (c *cpuTrainer) embedding() ([]float64, error) { return c.k.embedding(), nil }

func (c *cpuTrainer) dim() int { return c.k.d }

func (c *cpuTrainer) close() {}
