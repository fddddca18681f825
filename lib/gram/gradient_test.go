package gram

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/internal/asm"
	"github.com/oe-lab/oe/lib/internal/testpoints"
	"github.com/oe-lab/oe/lib/triplets"
)

// denseDist reads d_ab = K_aa − 2K_ab + K_bb off a dense Gram matrix.
func denseDist(k *mat.SymDense) sqDist {
	return func(a, b int32) float64 {
		return k.At(int(a), int(a)) - 2*k.At(int(a), int(b)) + k.At(int(b), int(b))
	}
}

// denseObjective is the objective at a dense K, the reference the finite
// differences are taken on.
func denseObjective(o objective, k *mat.SymDense, s *triplets.Set) float64 {
	return o.evaluate(denseDist(k), s, 0, s.Len(), nil, nil, 1) + o.lambda*mat.Trace(k)
}

// denseGradient assembles the pattern's sparse gradient into a dense matrix.
func denseGradient(o objective, k *mat.SymDense, s *triplets.Set, p *pattern) *mat.SymDense {
	coef := make([]float64, 2*s.Len())
	o.evaluate(denseDist(k), s, 0, s.Len(), coef, p.coefAt, 1)
	w := make([]float64, p.edges())
	diag := make([]float64, p.n)
	p.gather(coef, w, diag, o.lambda, 1)
	g := mat.NewSymDense(p.n, nil)
	for e := range w {
		g.SetSym(int(p.lo[e]), int(p.hi[e]), -w[e])
	}
	for a, v := range diag {
		g.SetSym(a, a, v)
	}
	return g
}

// randomTriplets returns m triplets of distinct random items.
func randomTriplets(n, m int, seed uint64) *triplets.Set {
	rng := rand.New(rand.NewPCG(seed, 5))
	s := triplets.NewSet(n, m)
	for s.Len() < m {
		i, j, k := rng.Int32N(int32(n)), rng.Int32N(int32(n)), rng.Int32N(int32(n))
		if i != j && i != k && j != k {
			s.Append(i, j, k)
		}
	}
	return s
}

// randomPSD returns XXᵀ for a random n×r X.
func randomPSD(n, r int, seed uint64) (*mat.SymDense, *mat.Dense) {
	x := testpoints.Gaussian(n, r, seed)
	k := mat.NewSymDense(n, nil)
	k.SymOuterK(1, x)
	return k, x
}

var objectives = []struct {
	name string
	obj  objective
}{
	{"gnmds", objective{kind: hinge}},
	{"gnmds λ=0.3", objective{kind: hinge, lambda: 0.3}},
	{"ckl μ=0.1", objective{kind: crowdKernel, mu: 0.1}},
	{"ckl μ=2 λ=0.5", objective{kind: crowdKernel, mu: 2, lambda: 0.5}},
	{"forte", objective{kind: logistic}},
}

func TestGradientMatchesFiniteDifferences(t *testing.T) {
	const n, h = 9, 1e-6
	s := randomTriplets(n, 60, 1)
	p, err := newPattern(s, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := randomPSD(n, n, 2)
	for _, c := range objectives {
		t.Run(c.name, func(t *testing.T) {
			g := denseGradient(c.obj, k, s, p)
			for a := 0; a < n; a++ {
				for b := a; b < n; b++ {
					// Moving the symmetric pair (a,b),(b,a) by h changes f by
					// h·(G_ab + G_ba); the diagonal entry by h·G_aa.
					want := 2 * g.At(a, b)
					if a == b {
						want = g.At(a, a)
					}
					kp, km := mat.NewSymDense(n, nil), mat.NewSymDense(n, nil)
					kp.CopySym(k)
					km.CopySym(k)
					kp.SetSym(a, b, k.At(a, b)+h)
					km.SetSym(a, b, k.At(a, b)-h)
					fd := (denseObjective(c.obj, kp, s) - denseObjective(c.obj, km, s)) / (2 * h)
					if math.Abs(fd-want) > 1e-5*math.Max(1, math.Abs(fd)) {
						t.Errorf("∂f/∂K[%d,%d]: finite difference %.8g, gradient %.8g", a, b, fd, want)
					}
				}
			}
		})
	}
}

// The training loop's gradient, computed from the factor K = XXᵀ and laid out
// over the pattern, must equal the dense reference at the same K.
func TestRunGradientMatchesDense(t *testing.T) {
	const n, d = 12, 3
	s := randomTriplets(n, 80, 3)
	for _, c := range objectives {
		t.Run(c.name, func(t *testing.T) {
			r, err := newRun(context.Background(), "test", c.obj, embed.Problem{Dim: d, Train: s}, embed.Options{Seed: 4, Threads: 2}, false)
			if err != nil {
				t.Fatal(err)
			}
			k := mat.NewSymDense(n, nil)
			k.SymOuterK(1, r.x)
			e := r.pat.edges()
			g := make([]float64, e+n)
			f := r.gradient(0, r.m, g)
			if want := denseObjective(c.obj, k, s); math.Abs(f-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("objective %g, dense %g", f, want)
			}
			ref := denseGradient(c.obj, k, s, r.pat)
			for x := 0; x < e; x++ {
				if got, want := g[x], ref.At(int(r.pat.lo[x]), int(r.pat.hi[x])); math.Abs(got-want) > 1e-9 {
					t.Errorf("edge (%d,%d): %g, dense %g", r.pat.lo[x], r.pat.hi[x], got, want)
				}
			}
			for a := 0; a < n; a++ {
				if got, want := g[e+a], ref.At(a, a); math.Abs(got-want) > 1e-9 {
					t.Errorf("diagonal %d: %g, dense %g", a, got, want)
				}
			}
		})
	}
}

func TestPatternCollectsEachPairOnce(t *testing.T) {
	s := triplets.NewSet(4, 3)
	s.Append(0, 1, 2) // pairs {0,1}, {0,2}
	s.Append(2, 0, 3) // pairs {0,2}, {2,3}
	s.Append(1, 0, 3) // pairs {0,1}, {1,3}
	p, err := newPattern(s, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		lo, hi int32
		slots  []int32
	}{
		{0, 1, []int32{0, 4}},
		{0, 2, []int32{1, 2}},
		{1, 3, []int32{5}},
		{2, 3, []int32{3}},
	}
	if p.edges() != len(want) {
		t.Fatalf("%d edges, want %d", p.edges(), len(want))
	}
	slotAt := make([]int32, len(p.coefAt)) // the slot stored at each place
	for slot, x := range p.coefAt {
		slotAt[x] = int32(slot)
	}
	for e, w := range want {
		got := slotAt[p.contribPtr[e]:p.contribPtr[e+1]]
		if p.lo[e] != w.lo || p.hi[e] != w.hi || len(got) != len(w.slots) {
			t.Fatalf("edge %d: {%d,%d} slots %v, want {%d,%d} %v", e, p.lo[e], p.hi[e], got, w.lo, w.hi, w.slots)
		}
		for x := range got {
			if got[x] != w.slots[x] {
				t.Fatalf("edge %d: slots %v, want %v", e, got, w.slots)
			}
		}
	}
	// Every edge appears in the adjacency of both its items.
	for a := 0; a < 4; a++ {
		for x := p.adjPtr[a]; x < p.adjPtr[a+1]; x++ {
			e := p.adjEdge[x]
			if other := p.adjCol[x]; !(p.lo[e] == int32(a) && p.hi[e] == other) && !(p.hi[e] == int32(a) && p.lo[e] == other) {
				t.Errorf("row %d lists edge %d with item %d", a, e, other)
			}
		}
	}
}

// The low-rank-plus-sparse operator must agree with the dense matrix it
// stands for, on sparse patterns (rows with fewer than four neighbours: the
// one-at-a-time tail) and dense ones (the four-at-a-time loop), for any block
// width, and give the same bits for every thread count and every cache block
// of neighbours.
func TestLowRankPlusSparseOperator(t *testing.T) {
	cases := []struct {
		name          string
		n, d, m, cols int
	}{
		{"sparse, one column", 15, 2, 12, 1},
		{"sparse", 15, 2, 40, 3},
		{"dense rows, odd width", 90, 3, 3000, 7},
		{"dense rows, wide block", 200, 5, 8000, 45},
		{"dense rows, several chunks", 1100, 3, 30000, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := randomTriplets(c.n, c.m, 9)
			p, err := newPattern(s, c.n, 2)
			if err != nil {
				t.Fatal(err)
			}
			_, x := randomPSD(c.n, c.d, 10)
			rng := rand.New(rand.NewPCG(11, 0))
			off := make([]float64, p.edges())
			diag := make([]float64, c.n)
			dense := mat.NewSymDense(c.n, nil)
			dense.SymOuterK(1, x)
			for e := range off {
				off[e] = rng.NormFloat64()
				a, b := int(p.lo[e]), int(p.hi[e])
				dense.SetSym(a, b, dense.At(a, b)+off[e])
			}
			for a := range diag {
				diag[a] = rng.NormFloat64()
				dense.SetSym(a, a, dense.At(a, a)+diag[a])
			}
			src := mat.NewDense(c.n, c.cols, nil)
			for i := 0; i < c.n; i++ {
				for j := 0; j < c.cols; j++ {
					src.Set(i, j, rng.NormFloat64())
				}
			}
			var want mat.Dense
			want.Mul(dense, src)
			// The order MulTo promises, row by row with no blocks: the
			// low-rank part, the diagonal, the neighbours four at a time,
			// the rest one at a time.
			var xt mat.Dense
			xt.Mul(x.T(), src)
			first := mat.NewDense(c.n, c.cols, nil)
			first.Mul(x, &xt)
			for a := 0; a < c.n; a++ {
				out, at := first.RawRowView(a), p.adjPtr[a]
				floats.AddScaled(out, diag[a], src.RawRowView(a))
				vals := make([]float64, p.adjPtr[a+1]-at)
				for i := range vals {
					vals[i] = off[p.adjEdge[at+int64(i)]]
				}
				rows := p.adjCol[at:p.adjPtr[a+1]]
				done := asm.Axpy4Rows(vals, rows, src.RawMatrix().Data, c.cols, out)
				for i := done; i < len(rows); i++ {
					floats.AddScaled(out, vals[i], src.RawRowView(int(rows[i])))
				}
			}
			// Blocks of 1 and 7 neighbour rows cut every list into runs,
			// some mid-group; the default makes one block at these sizes.
			for _, blockRows := range []int{0, 7, 1} {
				for _, threads := range []int{1, 2, 3} {
					op := newLowRankPlusSparse(x, p, off, diag, threads, nil)
					if blockRows > 0 {
						op.blockBytes = 8 * c.cols * blockRows
					}
					got := mat.NewDense(c.n, c.cols, nil)
					op.MulTo(got, src)
					if !mat.EqualApprox(got, &want, 1e-12*mat.Norm(&want, math.Inf(1))) {
						t.Fatalf("threads=%d, blocks of %d rows: operator product differs from the dense product", threads, blockRows)
					}
					if !mat.Equal(got, first) {
						t.Errorf("threads=%d, blocks of %d rows: product differs in its bits from the row-by-row sums", threads, blockRows)
					}
				}
			}
		})
	}
}

// TestLogisticBlockIsTermsLoop holds FORTE's batched evaluation
// (logisticBlock) to the loop over objective.term bit for bit: the loss sum
// and every coefficient, on logits from −800 to 800 (both sides of the
// exponential's flush) and on a range that ends inside a block.
func TestLogisticBlockIsTermsLoop(t *testing.T) {
	const n, m = 40, 1000
	rng := rand.New(rand.NewPCG(5, 5))
	s := triplets.NewSet(n, m)
	for x := 0; x < m; x++ {
		i := rng.Int32N(n)
		s.Append(i, (i+1+rng.Int32N(n-1))%n, (i+1+rng.Int32N(n-1))%n)
	}
	// An arbitrary symmetric "distance" with a wide range of differences.
	scale := []float64{1e-3, 1, 30, 800}
	dist := func(a, b int32) float64 {
		v := float64((a*131+b*71)%97) / 97
		return scale[(a+b)%4] * v
	}
	o := objective{kind: logistic}
	for _, r := range []struct{ from, to int }{{0, m}, {3, 3 + 2*logisticBlockLen + 17}} {
		want, got := make([]float64, 2*m), make([]float64, 2*m)
		inOrder := make([]int32, 2*m)
		for x := range inOrder {
			inOrder[x] = int32(x)
		}
		sum := 0.0
		for x := r.from; x < r.to; x++ {
			i, j, k := s.At(x)
			l, a, b := o.term(dist(i, j), dist(i, k))
			sum += l
			want[2*x], want[2*x+1] = a, b
		}
		if block := logisticBlock(dist, s, r.from, r.to, got, inOrder); math.Float64bits(block) != math.Float64bits(sum) {
			t.Errorf("[%d, %d): sum %v, term loop %v", r.from, r.to, block, sum)
		}
		for x := range want {
			if math.Float64bits(got[x]) != math.Float64bits(want[x]) {
				t.Fatalf("[%d, %d): coefficient %d is %v, term loop %v", r.from, r.to, x, got[x], want[x])
			}
		}
	}
}

// TestGatherSumsInAdjacencyOrder holds gather to its definition bit for
// bit: w[e] the sum of edge e's coefficients in slot order, diag[a] λ plus
// the weights of a's edges in the order of a's adjacency list, on values
// whose sums depend on their order.
func TestGatherSumsInAdjacencyOrder(t *testing.T) {
	const n, m, lambda = 60, 3000, 0.1
	s := randomTriplets(n, m, 17)
	p, err := newPattern(s, n, 2)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(18, 0))
	bySlot := make([]float64, 2*m)
	for x := range bySlot {
		bySlot[x] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(13)-6))
	}
	coef := make([]float64, 2*m)
	for slot, x := range p.coefAt {
		coef[x] = bySlot[slot]
	}
	w, diag := make([]float64, p.edges()), make([]float64, n)
	p.gather(coef, w, diag, lambda, 3)
	wantW := make([]float64, p.edges())
	for slot := range bySlot { // slots in increasing order
		i, j, k := s.At(slot / 2)
		o := j
		if slot%2 == 1 {
			o = k
		}
		lo, hi := min(i, o), max(i, o)
		for e := range wantW {
			if p.lo[e] == lo && p.hi[e] == hi {
				wantW[e] += bySlot[slot]
			}
		}
	}
	for e := range w {
		if math.Float64bits(w[e]) != math.Float64bits(wantW[e]) {
			t.Fatalf("w[%d] = %v, want %v", e, w[e], wantW[e])
		}
	}
	for a := 0; a < n; a++ {
		want := lambda
		for _, e := range p.adjEdge[p.adjPtr[a]:p.adjPtr[a+1]] {
			want += w[e]
		}
		if math.Float64bits(diag[a]) != math.Float64bits(want) {
			t.Fatalf("diag[%d] = %v, want %v", a, diag[a], want)
		}
	}
}
