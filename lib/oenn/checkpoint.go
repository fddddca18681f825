package oenn

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/optim"
)

// checkpoint is a CPU fit's state at the end of an epoch (embed.Checkpoint):
// everything a fit's later epochs depend on beyond what it derives from its
// problem and options again (the codes, the stopping rule's subset).
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
}

// saveCheckpoint writes the fit's state after epoch to cp.Path.
func saveCheckpoint(cp *embed.Checkpoint, epoch int, c *cpuNet, shuffle *rand.PCG, perm []int32, tr *embed.Tracker, checks int, res *embed.Result, elapsed time.Duration) error {
	rng, err := shuffle.MarshalBinary()
	if err != nil {
		return err
	}
	adam := c.adam.State()
	st := checkpoint{AdamSteps: adam.Steps, Shuffle: rng, Tracker: tr.State(), Checks: checks, Trace: res.Trace}
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
// file. A file written for another fit (ID), or for a network, optimiser or
// triplet set of other sizes, is an error naming it.
func loadCheckpoint(cp *embed.Checkpoint, params, triplets, maxEpochs int) (h embed.CheckpointHeader, st checkpoint, ok bool, err error) {
	h, ok, err = embed.ReadCheckpoint(cp.Path, &st)
	if err != nil || !ok {
		return h, st, ok, err
	}
	switch {
	case h.ID != cp.ID:
		return h, st, false, fmt.Errorf("oenn: the checkpoint %s is of fit %q, not %q", cp.Path, h.ID, cp.ID)
	case len(st.Params) != 4*params || len(st.Perm) != 4*triplets || h.Epochs < 1 || h.Epochs >= maxEpochs || len(st.Trace) != h.Epochs:
		return h, st, false, fmt.Errorf("oenn: the checkpoint %s holds %d bytes of parameters, %d of triplets and %d epochs (trace %d), not those of this fit (%d parameters, %d triplets, at most %d epochs)",
			cp.Path, len(st.Params), len(st.Perm), h.Epochs, len(st.Trace), params, triplets, maxEpochs)
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
