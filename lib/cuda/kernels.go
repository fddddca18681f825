//go:build cuda

package cuda

import (
	"fmt"
	"math"
	"unsafe"
)

// block is the number of threads per block of every launch; kernels.cu's
// shared-memory reductions assume it (BLOCK).
const block = 256

// LossKind selects the per-triplet loss of TripletGrad. The values are
// kernels.cu's LOSS_* constants.
type LossKind int32

// The losses of lib/tripletloss, parameterised by Loss.Param.
const (
	// LossSOE is max(0, Param + ‖xᵢ−xⱼ‖ − ‖xᵢ−xₖ‖), Param the margin.
	LossSOE LossKind = iota
	// LossSTE is softplus(dᵢⱼ − dᵢₖ); Param is unused.
	LossSTE
	// LossTSTE is the Student-t STE loss, Param the degrees of freedom α.
	LossTSTE
	// LossCKLX is −log((μ + dᵢₖ)/(2μ + dᵢⱼ + dᵢₖ)), Param = μ.
	LossCKLX
	// LossGNMDSX is max(0, Param + dᵢⱼ − dᵢₖ), Param the margin.
	LossGNMDSX
)

// Loss is a per-triplet loss with its hyper-parameter.
type Loss struct {
	Kind  LossKind
	Param float64
}

// NoiseModel is the noise of GenerateTriplets. The values are kernels.cu's
// NOISE_* constants.
type NoiseModel int32

// The noise models of lib/triplets.
const (
	NoNoise NoiseModel = iota
	// Bernoulli flips each answer with probability Level.
	Bernoulli
	// Gaussian adds N(0, Level²) to each of the two distances compared.
	Gaussian
)

// Adam holds the constants of one Adam step, as lib/optim.Adam.Constants
// returns them after NextStep.
type Adam struct {
	StepSize, BC2Sqrt, Beta1, Beta2, Eps float32
	AMSGrad                              bool
}

// f32, f64, i64, i32 and boolArg pack kernel arguments into launch slots.
func f32(v float32) uint64 { return uint64(math.Float32bits(v)) }
func f64(v float64) uint64 { return math.Float64bits(v) }
func i64(v int) uint64     { return uint64(int64(v)) }
func i32(v int32) uint64   { return uint64(uint32(v)) }

func boolArg(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// run launches kernel name over count items (one thread each) with args,
// timed under name. Called inside do. count 0 launches nothing.
func (c *Context) run(name string, count int, args ...uint64) error {
	return c.runBlocks(name, (count+block-1)/block, args...)
}

// runBlocks launches kernel name on blocks blocks (capped at maxGrid: the
// kernels loop over their work) with args, timed under name: the launch of
// kernels whose items are whole blocks, such as sgemm's tiles. Called
// inside do. blocks ≤ 0 launches nothing.
func (c *Context) runBlocks(name string, blocks int, args ...uint64) error {
	if blocks <= 0 {
		return nil
	}
	grid := min(blocks, c.maxGrid)
	return c.timed(name, func() error {
		if err := launch(c.fns[name], grid, block, args); err != nil {
			return fmt.Errorf("launching %s: %w", name, err)
		}
		return nil
	})
}

// reduce zeroes the 8-byte scratch, runs the reducing kernel name (whose
// last argument is the scratch address, appended here) and returns the
// scratch's 8 bytes, waiting for the kernel. Called inside do.
func (c *Context) reduce(name string, count int, args ...uint64) (uint64, error) {
	if err := memZero(c.scratch, 8); err != nil {
		return 0, err
	}
	if err := c.run(name, count, append(args, uint64(c.scratch))...); err != nil {
		return 0, err
	}
	var out uint64
	if err := memcpyDtoH(unsafe.Pointer(&out), c.scratch, 8); err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// checkRange checks that [from, to) is a range of triplets of idx.
func checkRange(idx *Buffer[int32], from, to int) error {
	if from < 0 || to < from || 3*to > idx.Len() {
		return fmt.Errorf("cuda: triplets [%d, %d) out of range of a set of %d", from, to, idx.Len()/3)
	}
	return nil
}

// checkMatrix checks that a buffer holds an n×d matrix.
func checkMatrix[T Elem](what string, b *Buffer[T], n, d int) error {
	if n < 1 || d < 1 || b.Len() != n*d {
		return fmt.Errorf("cuda: %s has %d elements, want %d×%d", what, b.Len(), n, d)
	}
	return nil
}

// TripletGrad adds the gradient of loss over the triplets [from, to) of idx
// (3 int32 each, indices < n) at the n×d row-major embedding x to grad
// (n×d) and returns the triplets' summed loss. It is the GPU port of
// lib/tripletloss's fused kernel (kernel.accumulate, loss.go): distances in
// float32, per-triplet loss and partials in float64, gradient in float32,
// added with atomicAdd, so the sum's order, and its last bits, vary from
// run to run. Indices are not range-checked on the device: idx must come
// from a validated triplet set or GenerateTriplets.
func (c *Context) TripletGrad(x *Buffer[float32], n, d int, idx *Buffer[int32], from, to int, loss Loss,
	grad *Buffer[float32]) (float64, error) {
	if err := checkMatrix("embedding", x, n, d); err != nil {
		return 0, err
	}
	if err := checkMatrix("gradient", grad, n, d); err != nil {
		return 0, err
	}
	if err := checkRange(idx, from, to); err != nil {
		return 0, err
	}
	if loss.Kind < LossSOE || loss.Kind > LossGNMDSX {
		return 0, fmt.Errorf("cuda: unknown loss kind %d", loss.Kind)
	}
	var bits uint64
	err := c.do(func() error {
		var err error
		bits, err = c.reduce("tl_grad", to-from, uint64(x.ptr), idx.at(3*from), i64(to-from), i64(d),
			i32(int32(loss.Kind)), f64(loss.Param), uint64(grad.ptr))
		return err
	})
	return math.Float64frombits(bits), err
}

// Ridge adds the gradient 2λ·x of the ridge term λ‖x‖² to grad (x's
// length), each product rounded to float32 as lib/tripletloss's CPU kernel
// rounds it, and returns ‖x‖² (summed in float64, in no fixed order).
func (c *Context) Ridge(x *Buffer[float32], lambda float64, grad *Buffer[float32]) (float64, error) {
	if grad.Len() != x.Len() {
		return 0, fmt.Errorf("cuda: ridge on %d parameters with a gradient of %d", x.Len(), grad.Len())
	}
	var bits uint64
	err := c.do(func() error {
		var err error
		bits, err = c.reduce("tl_ridge", x.Len(), uint64(x.ptr), i64(x.Len()), f32(float32(2*lambda)), uint64(grad.ptr))
		return err
	})
	return math.Float64frombits(bits), err
}

// Violations returns how many of the triplets [from, to) of idx the n×d
// embedding x violates: !(‖xᵢ−xⱼ‖ < ‖xᵢ−xₖ‖), so that ties and NaN count as
// violated (triplets.Violated, the rule of lib/metrics.TripletError and of
// lib/tripletloss's check, kernel.tripletError). Distances are float32.
func (c *Context) Violations(x *Buffer[float32], n, d int, idx *Buffer[int32], from, to int) (int64, error) {
	if err := checkMatrix("embedding", x, n, d); err != nil {
		return 0, err
	}
	if err := checkRange(idx, from, to); err != nil {
		return 0, err
	}
	var bad uint64
	err := c.do(func() error {
		var err error
		bad, err = c.reduce("tl_violations", to-from, uint64(x.ptr), idx.at(3*from), i64(to-from), i64(d))
		return err
	})
	return int64(bad), err
}

// AdamStep applies one Adam step with gradient g to the parameters x, with
// the moments m, v and (for AMSGrad) vmax, all of x's length. It is
// lib/optim.Adam.UpdateRange over all parameters, to the bit: the kernels
// are compiled without fused multiply-adds. vmax may be nil without AMSGrad.
func (c *Context) AdamStep(x, g, m, v, vmax *Buffer[float32], k Adam) error {
	size := x.Len()
	for _, b := range []*Buffer[float32]{g, m, v} {
		if b.Len() != size {
			return fmt.Errorf("cuda: Adam buffers of %d and %d elements", size, b.Len())
		}
	}
	vmaxPtr := uint64(0)
	if k.AMSGrad {
		if vmax == nil || vmax.Len() != size {
			return fmt.Errorf("cuda: AMSGrad needs a vmax buffer of %d elements", size)
		}
		vmaxPtr = uint64(vmax.ptr)
	}
	return c.do(func() error {
		return c.run("adam_step", size, uint64(x.ptr), uint64(g.ptr), uint64(m.ptr), uint64(v.ptr), vmaxPtr, i64(size),
			f32(k.StepSize), f32(k.BC2Sqrt), f32(k.Beta1), f32(k.Beta2), f32(k.Eps), boolArg(k.AMSGrad))
	})
}

// NonFinite returns the number of NaN or ±Inf entries of x (CPU twin:
// lib/tripletloss's allFinite).
func (c *Context) NonFinite(x *Buffer[float32]) (int64, error) {
	var bad uint64
	err := c.do(func() error {
		var err error
		bad, err = c.reduce("nonfinite", x.Len(), uint64(x.ptr), i64(x.Len()))
		return err
	})
	return int64(bad), err
}

// GatherTriplets copies triplet sel[s] of idx to triplet s of out for every
// s: a subset of a triplet set that lives on the device. The entries of sel
// must be < idx.Len()/3; they are checked on the host from hostSel, the
// host copy of sel.
func (c *Context) GatherTriplets(idx *Buffer[int32], sel *Buffer[int32], hostSel []int32, out *Buffer[int32]) error {
	if len(hostSel) != sel.Len() || out.Len() != 3*sel.Len() {
		return fmt.Errorf("cuda: gathering %d triplets (host list %d) into room for %d", sel.Len(), len(hostSel), out.Len()/3)
	}
	m := idx.Len() / 3
	for s, t := range hostSel {
		if t < 0 || int(t) >= m {
			return fmt.Errorf("cuda: subset entry %d is triplet %d of a set of %d", s, t, m)
		}
	}
	return c.do(func() error {
		return c.run("gather_triplets", sel.Len(), uint64(idx.ptr), uint64(sel.ptr), i64(sel.Len()), uint64(out.ptr))
	})
}

// GenerateTriplets fills out (3m int32) with m triplets drawn as
// lib/triplets.Random draws them from the n×dim row-major data x: i, j, k
// uniform and distinct, oriented so that i is closer to j (ties: closer to
// j), under noise. The random numbers come from a counter-based hash of
// (seed, triplet number), so the result depends on the seed only, but
// differs from lib/triplets.Random's for the same seed.
func (c *Context) GenerateTriplets(x *Buffer[float64], n, dim int, seed uint64, noise NoiseModel, level float64,
	out *Buffer[int32]) error {
	if err := checkMatrix("data", x, n, dim); err != nil {
		return err
	}
	if n < 3 || n > math.MaxInt32 {
		return fmt.Errorf("cuda: need 3 to 2³¹−1 points, have %d", n)
	}
	if out.Len()%3 != 0 {
		return fmt.Errorf("cuda: triplet buffer of %d int32, not a multiple of 3", out.Len())
	}
	switch {
	case noise < NoNoise || noise > Gaussian:
		return fmt.Errorf("cuda: unknown noise model %d", noise)
	case math.IsNaN(level) || level < 0 || (noise == Bernoulli && level > 1) || math.IsInf(level, 0):
		return fmt.Errorf("cuda: noise level %v out of range", level)
	}
	m := out.Len() / 3
	return c.do(func() error {
		return c.run("gen_triplets", m, uint64(x.ptr), i64(n), i64(dim), i64(m), seed, i32(int32(noise)), f64(level),
			uint64(out.ptr))
	})
}
