package oenn

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/optim"
)

// checkpoint is a CPU fit's state between two batches (embed.Checkpoint):
// everything a fit's later batches depend on beyond what it derives from its
// problem and options again (the codes, the stopping rule's subset). It is
// written at the end of an epoch or, for the long epochs of large runs
// (minutes each at USPS size and d = 50), within one.
//
// The arrays are stored as little-endian bytes, 4 a value: gob would spend
// up to 9 bytes on a float32 (OENN at CHAR size, d = 50: 55 MB instead of
// 39 MB). The header (embed.CheckpointHeader: the fit's ID, its epochs and time so
// far) comes before it in the file.
type checkpoint struct {
	Params []byte
	// AdamSteps, AdamM, AdamV and AdamVMax are the optimiser's state
	// (optim.AdamState); AdamVMax is empty before AMSGrad's first step.
	AdamSteps              int
	AdamM, AdamV, AdamVMax []byte
	// Shuffle is the state of the stream that reshuffles the triplets,
	// and Perm their order after the last shuffle (each epoch shuffles the
	// previous epoch's order).
	Shuffle []byte
	Perm    []byte
	Tracker embed.TrackerState
	Checks  int
	Trace   []embed.Epoch
	// Within is where the state stands inside the epoch after the
	// header's Epochs; the zero value (as in files written before it
	// existed) is that epoch not begun.
	Within withinEpoch
}

// withinEpoch is a fit's place inside an epoch.
type withinEpoch struct {
	// Begun says that the epoch's shuffle is done: Perm is its order.
	Begun bool
	// Batches counts its batches done, and LossSum is their summed loss.
	Batches int
	LossSum float64
}

// saveCheckpoint writes to cp.Path the fit's state after epoch and, within
// the next, after what `within` records.
func saveCheckpoint(cp *embed.Checkpoint, epoch int, within withinEpoch, c *cpuNet, shuffle *rand.PCG, perm []int32, tr *embed.Tracker, checks int, res *embed.Result, elapsed time.Duration) error {
	rng, err := shuffle.MarshalBinary()
	if err != nil {
		return err
	}
	adam := c.adam.State()
	st := checkpoint{AdamSteps: adam.Steps, Shuffle: rng, Tracker: tr.State(), Checks: checks, Trace: res.Trace, Within: within}
	for _, a := range []struct {
		dst *[]byte
		src any
	}{{&st.Params, c.net.params}, {&st.AdamM, adam.M}, {&st.AdamV, adam.V}, {&st.AdamVMax, adam.VMax}, {&st.Perm, perm}} {
		if *a.dst, err = binary.Append(nil, binary.LittleEndian, a.src); err != nil {
			return err
		}
	}
	return embed.WriteCheckpoint(cp.Path, embed.CheckpointHeader{ID: cp.ID, Epochs: epoch, Elapsed: elapsed}, &st)
}

// loadCheckpoint reads cp.Path into st; ok is false when there is no such
// file. A file written for another fit (ID), or for a network, optimiser,
// triplet set or batches of other sizes, is an error naming it.
func loadCheckpoint(cp *embed.Checkpoint, params, triplets, batch, maxEpochs int) (h embed.CheckpointHeader, st checkpoint, ok bool, err error) {
	h, ok, err = embed.ReadCheckpoint(cp.Path, &st)
	if err != nil || !ok {
		return h, st, ok, err
	}
	// An epoch's state is kept from its end, or from within it once its
	// shuffle is done: before its first batch, or after a batch that does
	// not end it.
	minEpochs, w := 1, st.Within
	if w.Begun {
		minEpochs = 0
	}
	switch {
	case h.ID != cp.ID:
		return h, st, false, fmt.Errorf("oenn: the checkpoint %s is of fit %q, not %q", cp.Path, h.ID, cp.ID)
	case len(st.Params) != 4*params || len(st.Perm) != 4*triplets || h.Epochs < minEpochs || h.Epochs >= maxEpochs || len(st.Trace) != h.Epochs:
		return h, st, false, fmt.Errorf("oenn: the checkpoint %s holds %d bytes of parameters, %d of triplets and %d epochs (trace %d), not those of this fit (%d parameters, %d triplets, at most %d epochs)",
			cp.Path, len(st.Params), len(st.Perm), h.Epochs, len(st.Trace), params, triplets, maxEpochs)
	case w.Batches < 0 || w.Batches > 0 && !w.Begun || w.Batches*batch >= triplets:
		return h, st, false, fmt.Errorf("oenn: the checkpoint %s stands after %d batches of an epoch (begun: %v), not within one of this fit's (%d triplets, batches of %d)",
			cp.Path, w.Batches, w.Begun, triplets, batch)
	}
	return h, st, true, nil
}

// restore puts the checkpoint's state into the fit: its parameters and
// optimiser (c), its shuffle stream and the triplets' order (whose lengths
// loadCheckpoint checked).
func (st *checkpoint) restore(path string, c *cpuNet, shuffle *rand.PCG, perm []int32) error {
	n := len(c.net.params)
	adam := optim.AdamState[float32]{Steps: st.AdamSteps, M: make([]float32, n), V: make([]float32, n)}
	if len(st.AdamVMax) > 0 {
		adam.VMax = make([]float32, n)
	}
	for _, a := range []struct {
		dst any
		src []byte
	}{{c.net.params, st.Params}, {adam.M, st.AdamM}, {adam.V, st.AdamV}, {adam.VMax, st.AdamVMax}, {perm, st.Perm}} {
		if _, err := binary.Decode(a.src, binary.LittleEndian, a.dst); err != nil {
			return fmt.Errorf("oenn: the checkpoint %s: %w", path, err)
		}
	}
	if err := c.adam.SetState(adam); err != nil {
		return fmt.Errorf("oenn: the checkpoint %s: %w", path, err)
	}
	if err := shuffle.UnmarshalBinary(st.Shuffle); err != nil {
		return fmt.Errorf("oenn: the checkpoint %s: %w", path, err)
	}
	return nil
}
