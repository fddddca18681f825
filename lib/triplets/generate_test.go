package triplets

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/internal/testpoints"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// violatedFraction returns the fraction of triplets of s that the points x
// order the other way, ‖xᵢ−xⱼ‖ > ‖xᵢ−xₖ‖, computed independently of the
// generator's distance code.
func violatedFraction(x *mat.Dense, s *Set) float64 {
	bad := 0
	for t := 0; t < s.Len(); t++ {
		i, j, k := s.At(t)
		xi := x.RawRowView(int(i))
		if floats.Distance(xi, x.RawRowView(int(j)), 2) > floats.Distance(xi, x.RawRowView(int(k)), 2) {
			bad++
		}
	}
	return float64(bad) / float64(s.Len())
}

func TestRandomNoiseless(t *testing.T) {
	for _, tc := range []struct {
		name string
		n, d int
		m    int
	}{
		{"three points", 3, 1, 100},
		{"2-D, several chunks", 200, 2, 3*chunkSize + 17},
		{"odd dimension 7", 50, 7, 5000},
		{"high dimension 54", 300, 54, 5000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := testpoints.Uniform(tc.n, tc.d, 1)
			s, err := Random(x, tc.m, Noise{}, 42, 2)
			if err != nil {
				t.Fatal(err)
			}
			if s.Len() != tc.m || s.N != tc.n {
				t.Fatalf("got %d triplets over %d items, want %d over %d", s.Len(), s.N, tc.m, tc.n)
			}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			if f := violatedFraction(x, s); f != 0 {
				t.Errorf("%.4f of noiseless triplets disagree with the true distances", f)
			}
		})
	}
}

// TestRandomUniformIndices checks that every item appears as anchor i about
// equally often: the sampler must not favour any index.
func TestRandomUniformIndices(t *testing.T) {
	const n, m = 10, 100000
	s, err := Random(testpoints.Uniform(n, 2, 3), m, Noise{}, 7, 1)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, n)
	for t := 0; t < m; t++ {
		i, _, _ := s.At(t)
		counts[i]++
	}
	mean := float64(m) / n
	sd := math.Sqrt(mean * (1 - 1.0/n))
	for i, c := range counts {
		if math.Abs(float64(c)-mean) > 5*sd {
			t.Errorf("item %d is anchor %d times, want %.0f ± %.0f", i, c, mean, 5*sd)
		}
	}
}

func TestRandomBernoulliFlipRate(t *testing.T) {
	const m = 200000
	x := testpoints.Uniform(100, 3, 2)
	for _, p := range []float64{0, 0.05, 0.3, 0.5, 1} {
		s, err := Random(x, m, Noise{Model: Bernoulli, Level: p}, 9, 2)
		if err != nil {
			t.Fatal(err)
		}
		got := violatedFraction(x, s)
		// Each triplet flips independently with probability p: the flip
		// count is Binomial(m, p). Allow 5 standard deviations.
		tol := 5 * math.Sqrt(p*(1-p)/m)
		if math.Abs(got-p) > tol {
			t.Errorf("p=%v: flip rate %.4f, want %v ± %.4f", p, got, p, tol)
		}
	}
}

func TestRandomGaussianErrorGrowsWithSigma(t *testing.T) {
	const m = 50000
	x := testpoints.Uniform(100, 2, 4)
	prev := -1.0
	for _, sigma := range []float64{0, 0.02, 0.1, 0.5, 5} {
		s, err := Random(x, m, Noise{Model: Gaussian, Level: sigma}, 11, 2)
		if err != nil {
			t.Fatal(err)
		}
		got := violatedFraction(x, s)
		if sigma == 0 && got != 0 {
			t.Errorf("σ=0: error rate %.4f, want 0", got)
		}
		if got <= prev {
			t.Errorf("σ=%v: error rate %.4f does not exceed %.4f at the smaller σ", sigma, got, prev)
		}
		if got > 0.5+5*math.Sqrt(0.25/m) {
			t.Errorf("σ=%v: error rate %.4f above chance", sigma, got)
		}
		prev = got
	}
	// At σ far above all distances (points lie in the unit square) the
	// answers are coin flips.
	if math.Abs(prev-0.5) > 0.02 {
		t.Errorf("σ=5: error rate %.4f, want ≈ 0.5", prev)
	}
}

func TestRandomDeterministicAcrossThreads(t *testing.T) {
	x := testpoints.Uniform(500, 5, 5)
	m := 3*chunkSize + 1234
	for _, noise := range []Noise{{}, {Model: Bernoulli, Level: 0.2}, {Model: Gaussian, Level: 0.1}} {
		one, err := Random(x, m, noise, 77, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, threads := range []int{2, 3, 7} {
			more, err := Random(x, m, noise, 77, threads)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(one.Idx, more.Idx) {
				t.Errorf("%v: threads=1 and threads=%d give different triplets", noise, threads)
			}
		}
		other, err := Random(x, m, noise, 78, 4)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(one.Idx, other.Idx) {
			t.Errorf("%v: seeds 77 and 78 give the same triplets", noise)
		}
	}
}

func TestRandomErrors(t *testing.T) {
	x := testpoints.Uniform(5, 2, 1)
	tests := []struct {
		name  string
		x     *mat.Dense
		m     int
		noise Noise
	}{
		{"two points", testpoints.Uniform(2, 2, 1), 10, Noise{}},
		{"negative m", x, -1, Noise{}},
		{"unknown noise", x, 10, Noise{Model: "uniform", Level: 0.1}},
		{"p > 1", x, 10, Noise{Model: Bernoulli, Level: 1.5}},
		{"negative σ", x, 10, Noise{Model: Gaussian, Level: -1}},
		{"NaN σ", x, 10, Noise{Model: Gaussian, Level: math.NaN()}},
	}
	for _, tc := range tests {
		if _, err := Random(tc.x, tc.m, tc.noise, 1, 1); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestCount(t *testing.T) {
	tests := []struct {
		lambda float64
		n, d   int
		want   int
	}{
		{2, 8, 2, 96},             // 2·8·2·3
		{1, 1024, 3, 30720},       // 1024·3·10
		{1, 1000, 2, 19932},       // ⌈2000·log₂1000⌉ = ⌈19931.57⌉
		{0.5, 3, 1, 3},            // ⌈1.5·log₂3⌉ = ⌈2.38⌉
		{0.01, 100, 2, 14},        // ⌈2·log₂100⌉ = ⌈13.29⌉
		{2, 581012, 2, 44501356},  // COVTYPE: ⌈2324048·19.148…⌉ = ⌈44501355.52⌉
		{8, 65536, 50, 419430400}, // 8·65536·50·16
		{1, 1, 2, 0},              // n < 2
		{1, 10, 0, 0},             // d < 1
		{0, 10, 2, 0},             // λ ≤ 0
		{-1, 10, 2, 0},            // λ ≤ 0
	}
	for _, tc := range tests {
		if got := Count(tc.lambda, tc.n, tc.d); got != tc.want {
			t.Errorf("Count(%v, %d, %d) = %d, want %d", tc.lambda, tc.n, tc.d, got, tc.want)
		}
	}
}

func TestOracle(t *testing.T) {
	// Points on a line at 0, 1, 3, 5, 7.
	x := mat.NewDense(5, 1, []float64{0, 1, 3, 5, 7})
	o, err := NewOracle(x, Noise{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		i, j, k int
		want    bool
	}{
		{0, 1, 2, true},  // 1 < 3
		{0, 2, 1, false}, // 3 > 1
		{2, 1, 4, true},  // 2 < 4
		{4, 3, 0, true},  // 2 < 7
		{1, 2, 0, false}, // 2 > 1
		{2, 1, 3, true},  // tie 2 = 2 counts as closer to j
		{2, 3, 1, true},  // the same tie, other way round
	}
	for _, tc := range tests {
		if got := o.Closer(tc.i, tc.j, tc.k); got != tc.want {
			t.Errorf("Closer(%d, %d, %d) = %v, want %v", tc.i, tc.j, tc.k, got, tc.want)
		}
	}
	sess := o.Session(3)
	for range 5 {
		if !sess.Closer(0, 1, 3) {
			t.Errorf("session: Closer(0, 1, 3) = false")
		}
	}
	if got, want := o.Queries(), int64(len(tests)+5); got != want {
		t.Errorf("Queries() = %d, want %d", got, want)
	}
	if o.N() != 5 {
		t.Errorf("N() = %d, want 5", o.N())
	}
	if _, err := NewOracle(mat.NewDense(2, 1, []float64{0, 1}), Noise{}, 1); err == nil {
		t.Error("oracle over 2 points: no error")
	}
	if _, err := NewOracle(x, Noise{Model: Bernoulli, Level: 2}, 1); err == nil {
		t.Error("oracle with p=2: no error")
	}
}

func TestOracleSessionsReproducible(t *testing.T) {
	x := testpoints.Uniform(20, 2, 6)
	noise := Noise{Model: Bernoulli, Level: 0.5}
	answers := func() []bool {
		o, err := NewOracle(x, noise, 99)
		if err != nil {
			t.Fatal(err)
		}
		s := o.Session(4)
		var out []bool
		for q := range 200 {
			out = append(out, s.Closer(q%20, (q+1)%20, (q+2)%20))
		}
		return out
	}
	if !slices.Equal(answers(), answers()) {
		t.Error("same seed and stream give different noisy answers")
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		s    *Set
		want string // "" for valid
	}{
		{"valid", &Set{N: 3, Idx: []int32{0, 1, 2, 2, 1, 0}}, ""},
		{"two items", &Set{N: 2, Idx: []int32{0, 1, 0}}, "need at least 3 items, have N=2"},
		{"ragged", &Set{N: 3, Idx: []int32{0, 1, 2, 0}}, "not a multiple of 3"},
		{"empty", &Set{N: 3}, "empty triplet set"},
		{"index = N", &Set{N: 3, Idx: []int32{0, 1, 2, 0, 1, 3}}, "row 1: index 3 out of range [0, 3)"},
		{"negative", &Set{N: 3, Idx: []int32{-1, 1, 2}}, "row 0: index -1 out of range"},
		{"i = j", &Set{N: 3, Idx: []int32{1, 1, 2}}, "row 0: indices (1, 1, 2) are not distinct"},
		{"j = k", &Set{N: 4, Idx: []int32{0, 1, 2, 0, 3, 3}}, "row 1: indices (0, 3, 3) are not distinct"},
	}
	for _, tc := range tests {
		err := tc.s.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

func TestSetAccessors(t *testing.T) {
	s := NewSet(5, 2)
	s.Append(0, 1, 2)
	s.Append(4, 3, 2)
	s.Append(1, 0, 4)
	if s.Len() != 3 {
		t.Fatalf("Len() = %d, want 3", s.Len())
	}
	if i, j, k := s.At(1); i != 4 || j != 3 || k != 2 {
		t.Errorf("At(1) = (%d, %d, %d), want (4, 3, 2)", i, j, k)
	}
	sub := s.Slice(1, 3)
	if sub.Len() != 2 || sub.N != 5 {
		t.Fatalf("Slice(1, 3): %d triplets over %d items", sub.Len(), sub.N)
	}
	if i, _, _ := sub.At(1); i != 1 {
		t.Errorf("Slice(1, 3).At(1) starts with %d, want 1", i)
	}
	sub.Append(2, 3, 4) // must not overwrite s's storage
	if s.Len() != 3 {
		t.Errorf("appending to a slice changed the parent's length")
	}
}

// BenchmarkRandom generates 10M triplets from COVTYPE-sized random data
// (n = 581012, d = 54, 250 MB of points, far beyond the caches), the
// memory-bound case that matters for the 500M-triplet COVTYPE runs.
func BenchmarkRandom(b *testing.B) {
	const n, d, m = 581012, 54, 10_000_000
	x := testpoints.Uniform(n, d, 1)
	for b.Loop() {
		if _, err := Random(x, m, Noise{}, 1, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(m)*float64(b.N)/b.Elapsed().Seconds(), "triplets/s")
}
