package tripletloss

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/optim"
)

// checkpoint is an Adam fit's state on the CPU between two batches
// (embed.Checkpoint): everything its later batches depend on beyond what
// the fit derives from its problem and options again (the triplets, the
// stopping rule's subset). The kernel's gradient and scratch space are zero
// between steps and are not kept.
//
// The embedding and the Adam moments are stored without the kernel's row
// padding (n×d float32 values each, as little-endian bytes: the padding's
// entries are zero in all of them, see lanes), so that a file's sizes say
// the dimension it was written for. At 60,000 items and d = 50 the four
// arrays take 48 MB; the header (embed.CheckpointHeader: the fit's ID, its
// epochs and time so far) comes before them in the file.
type checkpoint struct {
	// X is the embedding, row by row.
	X []byte
	// AdamSteps, AdamM, AdamV and AdamVMax are the optimiser's state
	// (optim.AdamState); AdamVMax is empty before AMSGrad's first step.
	AdamSteps              int
	AdamM, AdamV, AdamVMax []byte
	Tracker                embed.TrackerState
	Trace                  []embed.Epoch
	// Batches counts the batches done of the epoch after the header's
	// Epochs, and LossSum their summed loss.
	Batches int
	LossSum float64
}

// saveCheckpoint writes to cp.Path the fit's state after epoch and, within
// the next, after its first batches (whose summed loss is lossSum).
func (c *cpuTrainer) saveCheckpoint(cp *embed.Checkpoint, epoch, batches int, lossSum float64, tracker *embed.Tracker, res *embed.Result, elapsed time.Duration) error {
	k := c.k
	a := k.adam.State()
	st := checkpoint{AdamSteps: a.Steps, Tracker: tracker.State(), Trace: res.Trace, Batches: batches, LossSum: lossSum}
	var err error
	for _, f := range []struct {
		dst *[]byte
		src []float32
	}{{&st.X, k.x}, {&st.AdamM, a.M}, {&st.AdamV, a.V}, {&st.AdamVMax, a.VMax}} {
		if f.src == nil {
			continue
		}
		if *f.dst, err = binary.Append(nil, binary.LittleEndian, k.unpad(f.src)); err != nil {
			return err
		}
	}
	return embed.WriteCheckpoint(cp.Path, embed.CheckpointHeader{ID: cp.ID, Epochs: epoch, Elapsed: elapsed}, &st)
}

// loadCheckpoint reads cp.Path for fit r of n items in d dimensions, of
// batches batches an epoch and at most maxEpochs; ok is false when there
// is no such file. A file written for another fit (ID), or for a problem,
// dimension or batches of other sizes, is an error naming it.
func (r run) loadCheckpoint(cp *embed.Checkpoint, n, d, batches, maxEpochs int) (h embed.CheckpointHeader, st checkpoint, ok bool, err error) {
	h, ok, err = embed.ReadCheckpoint(cp.Path, &st)
	if err != nil || !ok {
		return h, st, ok, err
	}
	size := 4 * n * d
	switch {
	case h.ID != cp.ID:
		return h, st, false, fmt.Errorf("%s: the checkpoint %s is of fit %q, not %q", r.name, cp.Path, h.ID, cp.ID)
	case len(st.X) != size || len(st.AdamM) != size || len(st.AdamV) != size || len(st.AdamVMax) != 0 && len(st.AdamVMax) != size:
		return h, st, false, fmt.Errorf("%s: the checkpoint %s holds %d bytes of embedding and %d of optimiser moments, not those of this fit (%d items, d = %d: %d bytes each)",
			r.name, cp.Path, len(st.X), len(st.AdamM), n, d, size)
	case h.Epochs < 0 || h.Epochs >= maxEpochs || len(st.Trace) != h.Epochs || st.Batches < 0 || st.Batches >= batches:
		return h, st, false, fmt.Errorf("%s: the checkpoint %s stands after %d epochs (trace %d) and %d batches, not within this fit's %d epochs of %d batches",
			r.name, cp.Path, h.Epochs, len(st.Trace), st.Batches, maxEpochs, batches)
	}
	return h, st, true, nil
}

// restore puts the checkpoint's embedding and optimiser state (whose sizes
// loadCheckpoint checked) into the trainer.
func (st *checkpoint) restore(path, method string, c *cpuTrainer) error {
	k := c.k
	n := len(st.X) / 4
	x, a := make([]float32, n), optim.AdamState[float32]{Steps: st.AdamSteps, M: make([]float32, n), V: make([]float32, n)}
	if len(st.AdamVMax) > 0 {
		a.VMax = make([]float32, n)
	}
	for _, f := range []struct {
		dst []float32
		src []byte
	}{{x, st.X}, {a.M, st.AdamM}, {a.V, st.AdamV}, {a.VMax, st.AdamVMax}} {
		if _, err := binary.Decode(f.src, binary.LittleEndian, f.dst); err != nil {
			return fmt.Errorf("%s: the checkpoint %s: %w", method, path, err)
		}
	}
	a.M, a.V = k.pad(a.M), k.pad(a.V)
	if a.VMax != nil {
		a.VMax = k.pad(a.VMax)
	}
	if err := k.adam.SetState(a); err != nil {
		return fmt.Errorf("%s: the checkpoint %s: %w", method, path, err)
	}
	copy(k.x, k.pad(x))
	return nil
}

// unpad returns the n×d entries of v, laid out as the kernel's x (rows
// stride apart), row by row without the padding.
func (k *kernel) unpad(v []float32) []float32 {
	out := make([]float32, k.n*k.d)
	for i := 0; i < k.n; i++ {
		copy(out[i*k.d:(i+1)*k.d], v[i*k.stride:i*k.stride+k.d])
	}
	return out
}

// pad returns the n×d row-major v laid out as the kernel's x, the padding
// zero.
func (k *kernel) pad(v []float32) []float32 {
	out := make([]float32, k.n*k.stride)
	for i := 0; i < k.n; i++ {
		copy(out[i*k.stride:i*k.stride+k.d], v[i*k.d:(i+1)*k.d])
	}
	return out
}
