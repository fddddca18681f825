package gram

import (
	"encoding/binary"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/optim"
)

// checkpoint is a GNMDS or CKL fit's state between two batches
// (embed.Checkpoint): everything its later batches depend on beyond what
// the fit derives from its problem and options again (the pattern, the
// stopping rule's subset, the eigensolver's seeded start columns). The
// coefficients are not kept: every batch's gradient evaluates them afresh.
// It is written at the end of an epoch or within one: at USPS size and
// d = 50 an epoch of λ = 2 takes ten projections and 22 s, one of λ = 8
// forty.
//
// The arrays are stored as little-endian bytes, 8 a value (gob spends up to
// 9 on a float64). The Adam moments cover the pattern's edges and the
// diagonal: at USPS size and λ = 2, about 13 million values each, 320 MB
// for AMSGrad's three; the header (embed.CheckpointHeader: the fit's ID,
// its epochs and time so far) comes before them in the file.
type checkpoint struct {
	// X is the current factor (n×d) and Warm the eigensolver's warm start
	// for its next projection (n×WarmCols: d before the first projection,
	// the solver's block after), both row by row.
	X, Warm  []byte
	WarmCols int
	// AdamSteps, AdamM, AdamV and AdamVMax are the optimiser's state
	// (optim.AdamState); AdamVMax is empty without AMSGrad.
	AdamSteps              int
	AdamM, AdamV, AdamVMax []byte
	Tracker                embed.TrackerState
	Trace                  []embed.Epoch
	// Batches counts the batches done of the epoch after the header's
	// Epochs, and LossSum their summed objective.
	Batches int
	LossSum float64
}

// saveCheckpoint writes to cp.Path the fit's state after epoch and, within
// the next, after its first batches (whose summed objective is lossSum).
func (r *run) saveCheckpoint(cp *embed.Checkpoint, epoch, batches int, lossSum float64, adam *optim.Adam[float64]) error {
	a := adam.State()
	st := checkpoint{AdamSteps: a.Steps, Tracker: r.tracker.State(), Trace: r.res.Trace, Batches: batches, LossSum: lossSum}
	_, st.WarmCols = r.warm.Dims()
	var err error
	for _, f := range []struct {
		dst *[]byte
		src []float64
	}{{&st.X, rowMajor(r.x)}, {&st.Warm, rowMajor(r.warm)}, {&st.AdamM, a.M}, {&st.AdamV, a.V}, {&st.AdamVMax, a.VMax}} {
		if *f.dst, err = binary.Append(nil, binary.LittleEndian, f.src); err != nil {
			return err
		}
	}
	h := embed.CheckpointHeader{ID: cp.ID, Epochs: epoch, Elapsed: time.Since(r.start)}
	return embed.WriteCheckpoint(cp.Path, h, &st)
}

// rowMajor returns m's entries row by row (a copy where m is a view).
func rowMajor(m *mat.Dense) []float64 {
	raw := m.RawMatrix()
	if raw.Stride == raw.Cols {
		return raw.Data[:raw.Rows*raw.Cols]
	}
	return mat.DenseCopyOf(m).RawMatrix().Data
}

// loadCheckpoint reads cp.Path; ok is false when there is no such file. A
// file written for another fit (ID), or for a problem, optimiser or batches
// of other sizes, is an error naming it.
func (r *run) loadCheckpoint(cp *embed.Checkpoint, params, batches int) (h embed.CheckpointHeader, st checkpoint, ok bool, err error) {
	h, ok, err = embed.ReadCheckpoint(cp.Path, &st)
	if err != nil || !ok {
		return h, st, ok, err
	}
	b := r.d + r.eigOpt.Oversample
	amsgrad := len(st.AdamVMax) > 0
	switch {
	case h.ID != cp.ID:
		return h, st, false, fmt.Errorf("%s: the checkpoint %s is of fit %q, not %q", r.method, cp.Path, h.ID, cp.ID)
	case len(st.X) != 8*r.n*r.d || st.WarmCols < r.d || st.WarmCols > b || len(st.Warm) != 8*r.n*st.WarmCols ||
		len(st.AdamM) != 8*params || len(st.AdamV) != 8*params || amsgrad && len(st.AdamVMax) != 8*params:
		return h, st, false, fmt.Errorf("%s: the checkpoint %s holds %d bytes of embedding and %d of optimiser moments, not those of this fit (%d items, d = %d, %d parameters)",
			r.method, cp.Path, len(st.X), len(st.AdamM), r.n, r.d, params)
	case h.Epochs < 0 || h.Epochs >= r.maxEpochs() || len(st.Trace) != h.Epochs || st.Batches < 0 || st.Batches >= batches:
		return h, st, false, fmt.Errorf("%s: the checkpoint %s stands after %d epochs (trace %d) and %d batches, not within this fit's %d epochs of %d batches",
			r.method, cp.Path, h.Epochs, len(st.Trace), st.Batches, r.maxEpochs(), batches)
	}
	return h, st, true, nil
}

// restore puts the checkpoint's state into the fit and its optimiser (whose
// sizes loadCheckpoint checked), with its clock set back by the time the
// fit had computed, and returns where the epoch after the header's stands.
func (st *checkpoint) restore(path string, h embed.CheckpointHeader, r *run, adam *optim.Adam[float64]) error {
	size := len(st.AdamM) / 8
	a := optim.AdamState[float64]{Steps: st.AdamSteps, M: make([]float64, size), V: make([]float64, size)}
	if len(st.AdamVMax) > 0 {
		a.VMax = make([]float64, size)
	}
	x, warm := mat.NewDense(r.n, r.d, nil), mat.NewDense(r.n, st.WarmCols, nil)
	for _, f := range []struct {
		dst []float64
		src []byte
	}{{x.RawMatrix().Data, st.X}, {warm.RawMatrix().Data, st.Warm}, {a.M, st.AdamM}, {a.V, st.AdamV}, {a.VMax, st.AdamVMax}} {
		if _, err := binary.Decode(f.src, binary.LittleEndian, f.dst); err != nil {
			return fmt.Errorf("%s: the checkpoint %s: %w", r.method, path, err)
		}
	}
	if err := adam.SetState(a); err != nil {
		return fmt.Errorf("%s: the checkpoint %s: %w", r.method, path, err)
	}
	r.x, r.warm = x, warm
	r.tracker = embed.ResumeTracker(r.opt.Stop.OrDefault(), st.Tracker)
	r.res.Trace, r.res.Epochs = st.Trace, h.Epochs
	r.start = time.Now().Add(-h.Elapsed)
	return nil
}
