package tsne

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// klDivergence is KL(P‖Q) for the embedding y, computed exactly.
func klDivergence(p affinities, y []float64) float64 {
	n := len(y) / 2
	var z float64
	for i := 0; i < n; i++ {
		_, _, s := exactRepulsion(i, y)
		z += s
	}
	var kl float64
	for i := 0; i < n; i++ {
		for e := p.rowPtr[i]; e < p.rowPtr[i+1]; e++ {
			j := p.col[e]
			dx, dy := y[2*i]-y[2*j], y[2*i+1]-y[2*j+1]
			q := 1 / (1 + dx*dx + dy*dy) / z
			kl += p.val[e] * math.Log(p.val[e]/q)
		}
	}
	return kl
}

// randomLayout returns n random 2-D points (standard deviation scale), the
// last dups of them copies of earlier points so that the quadtree meets
// duplicates.
func randomLayout(n, dups int, scale float64, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 2))
	y := make([]float64, 2*n)
	for t := range y {
		y[t] = scale * rng.NormFloat64()
	}
	for i := n - dups; i < n; i++ {
		j := i - n/2
		y[2*i], y[2*i+1] = y[2*j], y[2*j+1]
	}
	return y
}

func TestExactGradientMatchesFiniteDifferences(t *testing.T) {
	x, _ := gaussianClusters(2, 14, 4, 3, 11)
	n, _ := x.Dims()
	p := jointAffinities(x.RawMatrix(), n-1, 3, 1)
	y := randomLayout(n, 0, 1, 12)

	g := newGradientState(p, 0, true, 1)
	grad := make([]float64, len(y))
	g.gradient(y, 1, grad)
	const h = 1e-6
	for c := range y {
		orig := y[c]
		y[c] = orig + h
		up := klDivergence(p, y)
		y[c] = orig - h
		down := klDivergence(p, y)
		y[c] = orig
		numeric := (up - down) / (2 * h)
		if math.Abs(numeric-grad[c]) > 1e-6*max(1, math.Abs(numeric)) {
			t.Errorf("coordinate %d: analytic gradient %.9g, finite difference %.9g", c, grad[c], numeric)
		}
	}
}

func TestBarnesHutGradientApproachesExact(t *testing.T) {
	x, _ := gaussianClusters(4, 300, 10, 4, 21)
	n, _ := x.Dims()
	p := jointAffinities(x.RawMatrix(), 30, 10, 2)
	y := randomLayout(n, 5, 5, 22)

	exact := make([]float64, len(y))
	newGradientState(p, 0, true, 2).gradient(y, 1, exact)
	for _, tc := range []struct {
		theta, maxRelErr float64
	}{
		{1e-9, 1e-12}, // every cell opened: exact up to rounding
		{0.1, 1e-3},
		{0.5, 3e-2},
	} {
		approx := make([]float64, len(y))
		newGradientState(p, tc.theta, false, 2).gradient(y, 1, approx)
		diff := make([]float64, len(y))
		floats.SubTo(diff, approx, exact)
		rel := floats.Norm(diff, 2) / floats.Norm(exact, 2)
		t.Logf("theta %g: relative gradient error %.3g", tc.theta, rel)
		if !(rel <= tc.maxRelErr) {
			t.Errorf("theta %g: relative gradient error %.3g, want ≤ %g", tc.theta, rel, tc.maxRelErr)
		}
	}
}

func TestQuadTreeCountsAndCentres(t *testing.T) {
	y := randomLayout(200, 5, 3, 31)
	var tree quadTree
	tree.build(y)
	root := tree.nodes[0]
	if root.count != 200 {
		t.Fatalf("root holds %d points, want 200", root.count)
	}
	mx, my := 0.0, 0.0
	for i := 0; i < 200; i++ {
		mx += y[2*i] / 200
		my += y[2*i+1] / 200
	}
	if math.Abs(root.mx-mx) > 1e-12 || math.Abs(root.my-my) > 1e-12 {
		t.Errorf("root centre of mass (%g, %g), want (%g, %g)", root.mx, root.my, mx, my)
	}
	// Every point's leaf contains the point, and internal nodes' counts add up.
	for i, l := range tree.leafOf {
		nd := tree.nodes[l]
		if nd.children >= 0 || math.Abs(y[2*i]-nd.cx) > nd.half || math.Abs(y[2*i+1]-nd.cy) > nd.half {
			t.Errorf("point %d (%g, %g) filed under node %+v", i, y[2*i], y[2*i+1], nd)
		}
	}
	for _, nd := range tree.nodes {
		if nd.children < 0 {
			continue
		}
		var sum int32
		for q := int32(0); q < 4; q++ {
			sum += tree.nodes[nd.children+q].count
		}
		if sum != nd.count {
			t.Errorf("node with %d points has children holding %d", nd.count, sum)
		}
	}
}

func TestConditionalRowHitsPerplexity(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 0))
	for _, tc := range []struct {
		name       string
		scale      float64
		perplexity float64
	}{
		{"unit", 1, 5},
		{"tiny distances", 1e-8, 10},
		{"huge distances", 1e8, 10},
		{"perplexity near k", 1, 25},
	} {
		dist := make([]float64, 30)
		for t := range dist {
			dist[t] = tc.scale * rng.Float64()
		}
		slices.Sort(dist)
		p := make([]float64, len(dist))
		conditionalRow(dist, tc.perplexity, p)
		var h float64
		for _, v := range p {
			if v > 0 {
				h -= v * math.Log(v)
			}
		}
		if got := math.Exp(h); math.Abs(got-tc.perplexity) > 1e-3*tc.perplexity {
			t.Errorf("%s: perplexity %.6g, want %g", tc.name, got, tc.perplexity)
		}
		if s := floats.Sum(p); math.Abs(s-1) > 1e-12 {
			t.Errorf("%s: row sums to %g", tc.name, s)
		}
	}
}

func TestJointAffinitiesSymmetricAndNormalised(t *testing.T) {
	x, _ := gaussianClusters(3, 90, 5, 3, 51)
	n, _ := x.Dims()
	p := jointAffinities(x.RawMatrix(), 15, 5, 2)
	dense := mat.NewDense(n, n, nil)
	var total float64
	for i := 0; i < n; i++ {
		for e := p.rowPtr[i]; e < p.rowPtr[i+1]; e++ {
			if e > p.rowPtr[i] && p.col[e] <= p.col[e-1] {
				t.Fatalf("row %d columns not strictly ascending", i)
			}
			if int(p.col[e]) == i {
				t.Fatalf("row %d has a diagonal entry", i)
			}
			dense.Set(i, int(p.col[e]), p.val[e])
			total += p.val[e]
		}
	}
	if math.Abs(total-1) > 1e-12 {
		t.Errorf("P sums to %g", total)
	}
	if !mat.EqualApprox(dense, dense.T(), 1e-15) {
		t.Errorf("P is not symmetric")
	}
}

func TestNearestNeighboursMatchSorting(t *testing.T) {
	x, _ := gaussianClusters(2, 80, 20, 1, 61)
	raw := x.RawMatrix()
	n := raw.Rows
	const k = 7
	idx, dist := nearestNeighbours(raw, k, 2)
	for i := 0; i < n; i++ {
		all := make([]float64, 0, n-1)
		for j := 0; j < n; j++ {
			if j != i {
				all = append(all, sqDist(raw.Data[i*raw.Stride:i*raw.Stride+raw.Cols], raw.Data[j*raw.Stride:j*raw.Stride+raw.Cols], math.Inf(1)))
			}
		}
		slices.Sort(all)
		for r := 0; r < k; r++ {
			if dist[i*k+r] != all[r] {
				t.Fatalf("point %d neighbour %d (index %d): distance %g, want %g", i, r, idx[i*k+r], dist[i*k+r], all[r])
			}
		}
	}
}
