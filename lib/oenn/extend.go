package oenn

import (
	"context"
	"fmt"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

// Extend embeds new items from triplets that involve them, by the paper's
// out-of-sample procedure (appendix, "Generalization to new data points"):
// the model's network is frozen and embeds the items it was trained on,
// while a second EmbNet of the same width, freshly initialised, embeds the
// new items and is trained on the triplets with the same loss and optimiser.
//
// Items 0..Items()−1 of t are the model's items; items Items()..t.N−1 are
// new, and every triplet must contain at least one of them. The new network
// encodes the k new items as the model encodes its own (binary codes of a
// permutation of 0..k−1, or random codes, drawn from opt.Seed; or the
// binary code of q−Items()), of the model's input length, lengthened to
// ⌈log₂ k⌉ when binary codes of that length cannot tell the k new items
// apart. The result's embedding has t.N rows: the frozen network's outputs,
// then the new items'. The extension runs on the CPU: opt.Backend cuda is
// an error, auto means cpu.
func (m *Model) Extend(ctx context.Context, t *triplets.Set, opt embed.Options) (*embed.Result, error) {
	b, err := embed.ParseBackend(opt.Backend)
	if err != nil {
		return nil, fmt.Errorf("oenn extend: %w", err)
	}
	if b == embed.BackendCUDA {
		return nil, fmt.Errorf("oenn extend: the out-of-sample extension runs on the CPU only, not on %s", b)
	}
	if t == nil {
		return nil, fmt.Errorf("oenn extend: no triplets")
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("oenn extend: %w", err)
	}
	old := m.codes.n
	k := t.N - old
	if k < 1 {
		return nil, fmt.Errorf("oenn extend: the triplets cover %d items, no more than the model's %d: no new item to embed", t.N, old)
	}
	for r := 0; r < t.Len(); r++ {
		i, j, l := t.At(r)
		if int(i) < old && int(j) < old && int(l) < old {
			return nil, fmt.Errorf("oenn extend: triplet row %d (%d, %d, %d) has no new item (new items are ≥ %d)", r, i, j, l, old)
		}
	}
	inLen := m.net.in
	if m.codes.enc != Random && k > 1<<min(inLen, 62) {
		inLen = InputLength(k)
	}
	codes, err := newCodes(m.codes.enc, k, inLen, newRNG(opt.Seed, streamExtendCodes))
	if err != nil {
		return nil, err
	}
	net := newEmbNet(inLen, m.net.width, m.net.dim)
	net.initialize(newRNG(opt.Seed, streamExtendInit))
	fixed := make([]float32, old*m.net.dim)
	embedItems(m.net, m.codes, m.net.newWorkspace(min(old, 4096), opt.Threads), fixed)
	tr := &trainer{method: "oenn extend", net: net, codes: codes, nFixed: old, fixed: fixed, set: t}
	return tr.run(ctx, opt)
}
