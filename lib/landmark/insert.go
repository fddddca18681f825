package landmark

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/oe-lab/oe/lib/internal/parallel"
	"github.com/oe-lab/oe/lib/optim"
	"github.com/oe-lab/oe/lib/triplets"
)

// inserter places items one at a time against an embedded subset: LLOE's
// second phase. It is read-only once built, so any number of goroutines may
// place items with it at once, each with its own insertWork.
type inserter struct {
	m, d int
	// items[s] is the problem index of subset member s; emb is its m×d
	// embedding, row-major.
	items []int
	emb   []float64
	// dist is the m×m matrix of embedded distances; order[s] lists the other
	// members by increasing embedded distance to s: the ranking that binary
	// search inserts a new item into.
	dist  []float64
	order [][]int32
	// anchors is the number of anchors per item, 2(d+1) capped at m.
	anchors int
	lr      float64
	iters   int
	// replay are the departures of the authors' code to replay (LLOE).
	replay Departure
}

// newInserter precomputes distances and rankings of the embedded subset.
func newInserter(items []int, emb []float64, d int, lr float64, iters int, replay Departure, threads int) *inserter {
	m := len(items)
	in := &inserter{m: m, d: d, items: items, emb: emb, dist: make([]float64, m*m),
		order: make([][]int32, m), anchors: min(2*(d+1), m), lr: lr, iters: iters, replay: replay}
	for a := 0; a < m; a++ {
		for b := a + 1; b < m; b++ {
			var s float64
			for c := 0; c < d; c++ {
				t := emb[a*d+c] - emb[b*d+c]
				s += t * t
			}
			s = math.Sqrt(s)
			in.dist[a*m+b], in.dist[b*m+a] = s, s
		}
	}
	parallel.For(threads, m, func(_, a int) {
		ord := make([]int32, 0, m-1)
		for b := 0; b < m; b++ {
			if b != a {
				ord = append(ord, int32(b))
			}
		}
		row := in.dist[a*m : (a+1)*m]
		slices.SortStableFunc(ord, func(x, y int32) int {
			switch {
			case row[x] < row[y]:
				return -1
			case row[x] > row[y]:
				return 1
			}
			return 0
		})
		in.order[a] = ord
	})
	return in
}

// shell is the constraint rIn ≤ ‖y − e_anchor‖ ≤ rOut learnt for one anchor;
// rOut is +Inf when the item is farther from the anchor than every member.
type shell struct {
	anchor    int
	rIn, rOut float64
}

// insertWork is one goroutine's scratch space.
type insertWork struct {
	minDist  []float64
	anchors  []int
	shells   []shell
	y, g     []float32
	yf, grad []float64
}

func (in *inserter) newWork() *insertWork {
	return &insertWork{minDist: make([]float64, in.m), anchors: make([]int, in.anchors),
		shells: make([]shell, 0, in.anchors), y: make([]float32, in.d), g: make([]float32, in.d),
		yf: make([]float64, in.d), grad: make([]float64, in.d)}
}

// place embeds item into dst (d values). It picks the anchors farthest-first
// from a random start, finds by binary search with the oracle where the item
// falls in each anchor's ranking of the members — ⌈log₂ m⌉ queries at most
// per anchor — and minimises the shell objective from the best member
// position with Adam. in.replay puts back departures of the authors' code
// (Departure).
func (in *inserter) place(o *triplets.OracleSession, rng *rand.Rand, item int, dst []float64, w *insertWork) error {
	in.farthestFirst(rng.IntN(in.m), w)
	w.shells = w.shells[:0]
	for _, a := range w.anchors {
		sh := in.shellOf(o, a, item)
		if in.replay&Balls != 0 {
			sh.rIn = 0
		}
		if math.IsInf(sh.rOut, 1) && in.replay&DropBeyond != 0 {
			continue
		}
		w.shells = append(w.shells, sh)
	}

	var bestLoss float64
	if in.replay&UniformStart != 0 {
		for c := range w.y {
			w.y[c] = rng.Float32()
			dst[c] = float64(w.y[c])
		}
		bestLoss = in.shellLoss(dst, w.shells, nil)
	} else {
		// Start from the member that violates the shells least: the
		// shells are an intersection of annuli, non-convex, and a member
		// position is a start already in the right region of the
		// embedding.
		best := 0
		bestLoss = math.Inf(1)
		for s := 0; s < in.m; s++ {
			if l := in.shellLoss(in.emb[s*in.d:(s+1)*in.d], w.shells, nil); l < bestLoss {
				best, bestLoss = s, l
			}
		}
		for c := 0; c < in.d; c++ {
			w.y[c] = float32(in.emb[best*in.d+c])
			dst[c] = in.emb[best*in.d+c]
		}
	}
	last := in.replay&LastPoint != 0
	if bestLoss == 0 && !last {
		return nil
	}
	adam, err := optim.NewAdam[float32](in.d, in.lr)
	if err != nil {
		return err
	}
	yf, grad := w.yf, w.grad
	for it := 0; it < in.iters; it++ {
		for c, v := range w.y {
			yf[c] = float64(v)
		}
		l := in.shellLoss(yf, w.shells, grad)
		if math.IsNaN(l) {
			return fmt.Errorf("item %d: %w", item, errNaN)
		}
		if l < bestLoss && !last {
			bestLoss = l
			copy(dst, yf)
			if l == 0 {
				return nil
			}
		}
		for c, v := range grad {
			w.g[c] = float32(v)
		}
		if err := adam.Step(w.y, w.g); err != nil {
			return err
		}
	}
	for c, v := range w.y {
		yf[c] = float64(v)
	}
	if l := in.shellLoss(yf, w.shells, nil); l < bestLoss || last {
		if math.IsNaN(l) {
			return fmt.Errorf("item %d: %w", item, errNaN)
		}
		copy(dst, yf)
	}
	return nil
}

// shellOf returns the shell that anchor a's ranking of the members puts
// item in: between the embedded distances from a of the member just nearer
// and the member just farther than the item (rOut +Inf when it is farther
// than all). Binary search asks the oracle ⌈log₂ m⌉ times at most; with
// TruthRanking it asks about every member, as the authors' code read the
// ground truth, and the shell runs from the largest embedded distance of a
// member truly nearer to the least of one truly farther (swapped when the
// embedding puts them the other way round).
func (in *inserter) shellOf(o *triplets.OracleSession, a, item int) shell {
	ord := in.order[a]
	sh := shell{anchor: a, rOut: math.Inf(1)}
	if in.replay&TruthRanking != 0 {
		for _, b := range ord {
			r := in.dist[a*in.m+int(b)]
			if o.Closer(in.items[a], item, in.items[b]) {
				sh.rOut = min(sh.rOut, r)
			} else {
				sh.rIn = max(sh.rIn, r)
			}
		}
		if sh.rIn > sh.rOut {
			sh.rIn, sh.rOut = sh.rOut, sh.rIn
		}
		return sh
	}
	lo, hi := 0, len(ord)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if o.Closer(in.items[a], item, in.items[ord[mid]]) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo > 0 {
		sh.rIn = in.dist[a*in.m+int(ord[lo-1])]
	}
	if lo < len(ord) {
		sh.rOut = in.dist[a*in.m+int(ord[lo])]
	}
	return sh
}

// shellLoss is the hinge-relaxed sphere-intersection objective at y,
//
//	Σ_shells max(0, (‖y − e_a‖ − c)² − h²),  c = (rIn+rOut)/2, h = (rOut−rIn)/2,
//
// zero exactly inside every shell ((‖y−e_a‖ − rIn)(‖y−e_a‖ − rOut) outside).
// A shell without outer radius contributes (rIn − ‖y − e_a‖)² while inside
// rIn. When grad is not nil it receives the gradient.
func (in *inserter) shellLoss(y []float64, shells []shell, grad []float64) float64 {
	clear(grad)
	var loss float64
	for _, sh := range shells {
		e := in.emb[sh.anchor*in.d : (sh.anchor+1)*in.d]
		var r2 float64
		for c, v := range y {
			t := v - e[c]
			r2 += t * t
		}
		r := math.Sqrt(r2)
		var l, dldr float64
		switch {
		case r < sh.rIn && math.IsInf(sh.rOut, 1):
			l, dldr = (sh.rIn-r)*(sh.rIn-r), 2*(r-sh.rIn)
		case r < sh.rIn || r > sh.rOut:
			l, dldr = (r-sh.rIn)*(r-sh.rOut), 2*r-sh.rIn-sh.rOut
		default:
			continue
		}
		loss += l
		if grad == nil || r == 0 {
			continue
		}
		for c, v := range y {
			grad[c] += dldr * (v - e[c]) / r
		}
	}
	return loss
}

// farthestFirst fills w.anchors with a farthest-first traversal of the
// members in the embedding, starting at member start.
func (in *inserter) farthestFirst(start int, w *insertWork) {
	copy(w.minDist, in.dist[start*in.m:(start+1)*in.m])
	w.anchors[0] = start
	for c := 1; c < len(w.anchors); c++ {
		far := 0
		for s, v := range w.minDist {
			if v > w.minDist[far] {
				far = s
			}
		}
		w.anchors[c] = far
		row := in.dist[far*in.m : (far+1)*in.m]
		for s, v := range row {
			w.minDist[s] = min(w.minDist[s], v)
		}
	}
}
