package tripletloss

import (
	"math"
	"math/rand/v2"
	"testing"
)

var allLosses = []struct {
	name string
	loss lossFunc
}{
	{"soe", lossFunc{kindSOE, 1}},
	{"soe margin 0.3", lossFunc{kindSOE, 0.3}},
	{"ste", lossFunc{kind: kindSTE}},
	{"tste alpha 1", lossFunc{kindTSTE, 1}},
	{"tste alpha 29", lossFunc{kindTSTE, 29}},
	{"cklx", lossFunc{kindCKLX, DefaultMu}},
	{"cklx mu 0.5", lossFunc{kindCKLX, 0.5}},
	{"gnmdsx", lossFunc{kindGNMDSX, 1}},
}

// The partial derivatives that terms returns must match central differences
// of its loss, away from the hinge's kink.
func TestTermsPartialsMatchFiniteDifferences(t *testing.T) {
	points := [][2]float64{{0.3, 0.9}, {2.5, 1.1}, {0.05, 4}, {7, 6.5}, {1e-3, 2e-3}, {40, 39}}
	for _, tc := range allLosses {
		for _, pt := range points {
			dij, dik := pt[0], pt[1]
			if tc.loss.kind == kindSOE && math.Abs(tc.loss.param+math.Sqrt(dij)-math.Sqrt(dik)) < 1e-3 ||
				tc.loss.kind == kindGNMDSX && math.Abs(tc.loss.param+dij-dik) < 1e-3 {
				continue // at the kink the derivative is one-sided
			}
			_, gij, gik := tc.loss.terms(dij, dik)
			h := 1e-6 * math.Max(1, math.Min(dij, dik))
			fij := (lossAt(tc.loss, dij+h, dik) - lossAt(tc.loss, dij-h, dik)) / (2 * h)
			fik := (lossAt(tc.loss, dij, dik+h) - lossAt(tc.loss, dij, dik-h)) / (2 * h)
			if !close(gij, fij, 1e-5) || !close(gik, fik, 1e-5) {
				t.Errorf("%s at (%g, %g): partials (%g, %g), finite differences (%g, %g)",
					tc.name, dij, dik, gij, gik, fij, fik)
			}
		}
	}
}

// terms is the per-method function of l, as coefficients calls it.
func (l lossFunc) terms(dij, dik float64) (loss, gij, gik float64) {
	switch l.kind {
	case kindSOE:
		return soeTerms(dij, dik, l.param)
	case kindSTE:
		return steTerms(dij, dik)
	case kindTSTE:
		return tsteTerms(dij, dik, l.param)
	case kindCKLX:
		return ckLXTerms(dij, dik, l.param)
	default:
		return gnmdsXTerms(dij, dik, l.param)
	}
}

func lossAt(l lossFunc, dij, dik float64) float64 {
	v, _, _ := l.terms(dij, dik)
	return v
}

// coefficients must be the per-method functions, doubled, bit for bit, over
// a few blocks of triplets with a partial one (STE and t-STE compute their
// softplus and sigmoid four at a time).
func TestCoefficientsMatchTerms(t *testing.T) {
	dist := []float32{0.3, 0.9, 2.5, 1.1, 0, 4, 7, 6.5, 1e-3, 2e-3, 900, 1, 1, 900}
	rng := rand.New(rand.NewPCG(5, 6))
	for len(dist) < 2*(2*block+7) {
		dist = append(dist, float32(rng.ExpFloat64()*10), float32(rng.ExpFloat64()*10))
	}
	for _, tc := range allLosses {
		coef := make([]float32, len(dist))
		total := tc.loss.coefficients(dist, coef)
		var want float64
		for p := 0; p < len(dist); p += 2 {
			v, a, b := tc.loss.terms(float64(dist[p]), float64(dist[p+1]))
			want += v
			if coef[p] != float32(2*a) || coef[p+1] != float32(2*b) {
				t.Errorf("%s pair %d: coefficients (%v, %v), want (%v, %v)", tc.name, p/2, coef[p], coef[p+1], 2*a, 2*b)
			}
		}
		if total != want {
			t.Errorf("%s: block loss %v, want %v", tc.name, total, want)
		}
	}
}

func close(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// Each loss against its closed form from paper section 2.
func TestTermsMatchPaperFormulas(t *testing.T) {
	dij, dik := 0.7, 1.9
	alpha := 3.0
	kt := func(d float64) float64 { return math.Pow(1+d/alpha, -(alpha+1)/2) }
	mu := 0.2
	tests := []struct {
		name string
		loss lossFunc
		want float64
	}{
		{"soe", lossFunc{kindSOE, 1}, math.Max(0, 1+math.Sqrt(dij)-math.Sqrt(dik))},
		{"ste", lossFunc{kind: kindSTE}, -math.Log(math.Exp(-dij) / (math.Exp(-dij) + math.Exp(-dik)))},
		{"tste", lossFunc{kindTSTE, alpha}, -math.Log(kt(dij) / (kt(dij) + kt(dik)))},
		{"cklx", lossFunc{kindCKLX, mu}, -math.Log((mu + dik) / (2*mu + dik + dij))},
		{"gnmdsx inactive", lossFunc{kindGNMDSX, 1}, math.Max(0, 1+dij-dik)},
		{"gnmdsx active", lossFunc{kindGNMDSX, 1.5}, math.Max(0, 1.5+dij-dik)},
	}
	for _, tc := range tests {
		if got := lossAt(tc.loss, dij, dik); !close(got, tc.want, 1e-12) {
			t.Errorf("%s: loss %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Extreme but finite distances must give finite losses and gradients, and
// SOE must not divide by a zero distance.
func TestTermsStayFinite(t *testing.T) {
	points := [][2]float64{{0, 0}, {0, 5}, {5, 0}, {1e30, 0}, {0, 1e30}, {1e-30, 1e-30}}
	for _, tc := range allLosses {
		for _, pt := range points {
			l, gij, gik := tc.loss.terms(pt[0], pt[1])
			for _, v := range []float64{l, gij, gik} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%s at %v: (%v, %v, %v) not finite", tc.name, pt, l, gij, gik)
				}
			}
		}
	}
}

// Overflowed distances must surface as a NaN loss, which Fit reports as
// divergence, not as a quietly satisfied triplet.
func TestTermsPropagateOverflow(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range allLosses {
		if l := lossAt(tc.loss, inf, inf); !math.IsNaN(l) {
			t.Errorf("%s: loss at (Inf, Inf) is %v, want NaN", tc.name, l)
		}
	}
}
