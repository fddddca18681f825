package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/testpoints"
	"github.com/oe-lab/oe/lib/triplets"
)

func TestTripletError(t *testing.T) {
	// Items on a line: e0=0, e1=1, e2=3, e3=−1, e4=1 (same place as e1).
	line := mat.NewDense(5, 1, []float64{0, 1, 3, -1, 1})
	nan := mat.NewDense(3, 1, []float64{0, math.NaN(), 2})
	tests := []struct {
		name string
		emb  *mat.Dense
		idx  []int32
		want float64
	}{
		{"satisfied", line, []int32{0, 1, 2}, 0},              // 1 < 3
		{"violated", line, []int32{0, 2, 1}, 1},               // 3 > 1
		{"tie counts as violated", line, []int32{0, 1, 3}, 1}, // 1 = 1
		{"coincident j satisfied", line, []int32{1, 4, 0}, 0}, // 0 < 1
		{"mixed", line, []int32{0, 1, 2, 0, 2, 1, 0, 1, 3, 1, 4, 0}, 0.5},
		{"NaN counts as violated", nan, []int32{0, 2, 1, 2, 0, 1}, 1},
		{"empty set", line, nil, 0},
	}
	for _, tc := range tests {
		s := &triplets.Set{N: 3, Idx: tc.idx}
		if got := TripletError(tc.emb, s); got != tc.want {
			t.Errorf("%s: TripletError = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestTripletErrorParallel checks the parallel path against a direct count
// and against the generator: triplets drawn from the points themselves are
// all satisfied.
func TestTripletErrorParallel(t *testing.T) {
	x := testpoints.Gaussian(1000, 3, 1)
	s, err := triplets.Random(x, 12*tripletsPerTask+5, triplets.Noise{}, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := TripletError(x, s); got != 0 {
		t.Errorf("error of the generating points on their own triplets = %v, want 0", got)
	}
	emb := testpoints.Gaussian(1000, 2, 2)
	bad := 0
	for r := 0; r < s.Len(); r++ {
		i, j, k := s.At(r)
		ei := emb.RawRowView(int(i))
		if floats.Distance(ei, emb.RawRowView(int(j)), 2) >= floats.Distance(ei, emb.RawRowView(int(k)), 2) {
			bad++
		}
	}
	want := float64(bad) / float64(s.Len())
	if got := TripletError(emb, s); got != want {
		t.Errorf("TripletError = %v, direct count gives %v", got, want)
	}
	if want < 0.3 || want > 0.7 {
		t.Errorf("an unrelated embedding violates %v of the triplets, want about half", want)
	}
}

// TestSizeMismatchPanics checks that every function treats arguments that
// disagree in size the same way: a panic naming the counts (see the package
// comment).
func TestSizeMismatchPanics(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		call       func()
	}{
		{"TripletError", "TripletError: embedding has 3 rows, triplet set indexes 5", func() {
			TripletError(mat.NewDense(3, 1, []float64{0, 1, 2}), &triplets.Set{N: 5, Idx: []int32{0, 1, 2}})
		}},
		{"Procrustes", "Procrustes: truth has 4 rows, embedding 5", func() {
			Procrustes(testpoints.Gaussian(4, 2, 1), testpoints.Gaussian(5, 2, 2))
		}},
		{"KNNError", "KNNError: x has 5 rows, labels 3", func() {
			KNNError(testpoints.Gaussian(5, 2, 1), []int{0, 1, 0}, 1)
		}},
		{"CrossKNNError training labels", "CrossKNNError: train has 6 rows, trainLabels 5", func() {
			CrossKNNError(testpoints.Gaussian(6, 2, 1), make([]int, 5), testpoints.Gaussian(6, 2, 1), make([]int, 6))
		}},
		{"CrossKNNError test labels", "CrossKNNError: test has 6 rows, testLabels 2", func() {
			CrossKNNError(testpoints.Gaussian(6, 2, 1), make([]int, 6), testpoints.Gaussian(6, 2, 1), make([]int, 2))
		}},
		{"CrossKNNError widths", "CrossKNNError: train has 2 columns, test 3", func() {
			CrossKNNError(testpoints.Gaussian(6, 2, 1), make([]int, 6), testpoints.Gaussian(6, 3, 1), make([]int, 6))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), tc.want) {
					t.Errorf("panic %v, want one containing %q", r, tc.want)
				}
			}()
			tc.call()
		})
	}
}

// similar returns a·x·R + shift for a rotation-with-reflection R.
func similar(x *mat.Dense, a float64, seed uint64) *mat.Dense {
	n, d := x.Dims()
	var qr mat.QR
	qr.Factorize(testpoints.Gaussian(d, d, seed))
	var q mat.Dense
	qr.QTo(&q)
	var out mat.Dense
	out.Mul(x, &q)
	out.Scale(a, &out)
	shift := testpoints.Gaussian(1, d, seed+1).RawRowView(0)
	for i := range n {
		floats.Add(out.RawRowView(i), shift)
	}
	return &out
}

func TestProcrustes(t *testing.T) {
	x := testpoints.Gaussian(50, 3, 3)
	// A 3-D truth whose third coordinate is constant is planar; its 2-D
	// coordinates, rotated, embed it perfectly after padding.
	planar := mat.NewDense(50, 3, nil)
	flat := mat.NewDense(50, 2, nil)
	for i := range 50 {
		planar.Set(i, 0, x.At(i, 0))
		planar.Set(i, 1, x.At(i, 1))
		planar.Set(i, 2, 7)
		flat.Set(i, 0, x.At(i, 0))
		flat.Set(i, 1, x.At(i, 1))
	}
	wide := mat.NewDense(50, 4, nil) // x with an extra zero column
	wide.Slice(0, 50, 0, 3).(*mat.Dense).Copy(x)
	tests := []struct {
		name        string
		truth, emb  *mat.Dense
		want, delta float64
	}{
		{"identical", x, x, 0, 1e-12},
		{"rotated, reflected, scaled, translated", x, similar(x, 0.01, 5), 0, 1e-12},
		{"scaled up", x, similar(x, 1e6, 6), 0, 1e-12},
		{"truth wider: zero-padded embedding", planar, similar(flat, 3, 7), 0, 1e-12},
		{"embedding wider", x, similar(wide, 2, 8), 0, 1e-12},
		// Worked by hand: truth (0,0),(1,0),(0,1), emb (0,0),(2,0),(0,1).
		// Centred: ‖A‖² = 4/3, ‖B‖² = 10/3; AᵀB = [[4/3, −1/3], [−2/3, 2/3]],
		// whose singular values sum to √((4/3+2/3)² + (−2/3+1/3)²) = √37/3.
		// Disparity = 1 − (√37/3)² / (4/3 · 10/3) = 1 − 37/40 = 3/40.
		{"hand-worked 3 points", mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 1}), mat.NewDense(3, 2, []float64{0, 0, 2, 0, 0, 1}), 3.0 / 40, 1e-14},
		// Collinear points against a right angle: truth (−1,0),(0,0),(1,0);
		// emb (0,1),(0,0),(1,0), centred (−1/3,2/3),(−1/3,−1/3),(2/3,−1/3).
		// ‖A‖² = 2, ‖B‖² = 4/3, AᵀB = [[1, −1], [0, 0]] with one singular
		// value √2, so the disparity is 1 − 2/(2·4/3) = 1/4.
		{"hand-worked line vs corner", mat.NewDense(3, 2, []float64{-1, 0, 0, 0, 1, 0}), mat.NewDense(3, 2, []float64{0, 1, 0, 0, 1, 0}), 0.25, 1e-14},
	}
	for _, tc := range tests {
		got, err := Procrustes(tc.truth, tc.emb)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if math.Abs(got-tc.want) > tc.delta {
			t.Errorf("%s: Procrustes = %v, want %v ± %v", tc.name, got, tc.want, tc.delta)
		}
		back, err := Procrustes(tc.emb, tc.truth)
		if err != nil || math.Abs(back-got) > 1e-12 {
			t.Errorf("%s: swapped arguments give %v (%v), want %v", tc.name, back, err, got)
		}
	}
}

// TestProcrustes2D checks random 2-D pairs against the closed form for 2×2
// matrices: the singular values of [[a, b], [c, d]] sum to the larger of
// √((a+d)² + (c−b)²) and √((a−d)² + (b+c)²).
func TestProcrustes2D(t *testing.T) {
	for seed := range uint64(5) {
		a := testpoints.Gaussian(20, 2, 10+seed)
		b := testpoints.Gaussian(20, 2, 20+seed)
		got, err := Procrustes(a, b)
		if err != nil {
			t.Fatal(err)
		}
		ca, cb := centredUnit(a), centredUnit(b)
		var m mat.Dense
		m.Mul(ca.T(), cb)
		p, q, r, s := m.At(0, 0), m.At(0, 1), m.At(1, 0), m.At(1, 1)
		sum := max(math.Hypot(p+s, r-q), math.Hypot(p-s, q+r))
		want := 1 - sum*sum
		if math.Abs(got-want) > 1e-12 || got <= 0 || got > 1 {
			t.Errorf("seed %d: Procrustes = %v, closed form %v", seed, got, want)
		}
	}
}

func centredUnit(x *mat.Dense) *mat.Dense {
	n, d := x.Dims()
	out := mat.DenseCopyOf(x)
	for c := range d {
		col := mat.Col(nil, c, x)
		mean := floats.Sum(col) / float64(n)
		for i := range n {
			out.Set(i, c, out.At(i, c)-mean)
		}
	}
	out.Scale(1/mat.Norm(out, 2), out)
	return out
}

func TestProcrustesErrors(t *testing.T) {
	x := testpoints.Gaussian(4, 2, 1)
	same := mat.NewDense(4, 2, []float64{1, 2, 1, 2, 1, 2, 1, 2})
	withNaN := mat.DenseCopyOf(x)
	withNaN.Set(2, 1, math.NaN())
	withInf := mat.DenseCopyOf(x)
	withInf.Set(3, 0, math.Inf(-1))
	tests := []struct {
		name       string
		truth, emb *mat.Dense
		want       string
	}{
		{"one point", testpoints.Gaussian(1, 2, 1), testpoints.Gaussian(1, 2, 2), "need at least 2 points, have 1"},
		{"coincident truth", same, x, "the 4 points of truth all coincide"},
		{"coincident embedding", x, same, "the 4 points of embedding all coincide"},
		{"NaN", x, withNaN, "embedding has NaN at row 2, column 1"},
		{"Inf", withInf, x, "truth has -Inf at row 3, column 0"},
	}
	for _, tc := range tests {
		_, err := Procrustes(tc.truth, tc.emb)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

func TestKNNPredictHand(t *testing.T) {
	// Training points on a line: 0 (label 0), 1 (0), 2 (1), 10 (1), 11 (1).
	train := mat.NewDense(5, 1, []float64{0, 1, 2, 10, 11}).RawMatrix()
	trainY := []int{0, 0, 1, 1, 1}
	tests := []struct {
		q    float64
		k    int
		want int
	}{
		{0.5, 3, 0},  // 0, 1, 2 → 0, 0, 1
		{10.4, 3, 1}, // 10, 11, 2 → 1, 1, 1
		{5, 3, 0},    // 2 (3), 1 (4), then 0 and 10 tie at 5: the earlier, 0 → 1, 0, 0
		{1.5, 2, 0},  // 1 and 2 tie at 0.5: votes 0 and 1 tie → smaller label 0
		{2, 1, 1},    // the point itself
		{6.5, 5, 1},  // all five: three 1s
	}
	for _, tc := range tests {
		test := mat.NewDense(1, 1, []float64{tc.q}).RawMatrix()
		if got := knnPredict(train, trainY, test, tc.k); got[0] != tc.want {
			t.Errorf("q=%v k=%d: predicted %d, want %d", tc.q, tc.k, got[0], tc.want)
		}
	}
}

func TestNeighbourCountAndSplit(t *testing.T) {
	tests := []struct {
		n, k, train int
	}{
		{2, 1, 1},
		{3, 1, 2},
		{4, 2, 2},
		{10, 3, 7},
		{1023, 9, 716},
		{1024, 10, 716},
		{60000, 15, 42000},
	}
	for _, tc := range tests {
		if k := neighbourCount(tc.n); k != tc.k {
			t.Errorf("n=%d: k = %d, want ⌊log₂ n⌋ = %d", tc.n, k, tc.k)
		}
		train, test := splitIndices(tc.n, 1)
		if len(train) != tc.train || len(test) != tc.n-tc.train {
			t.Errorf("n=%d: split %d/%d, want %d/%d", tc.n, len(train), len(test), tc.train, tc.n-tc.train)
		}
		all := slices.Concat(train, test)
		slices.Sort(all)
		for i, v := range all {
			if v != i {
				t.Errorf("n=%d: split is not a partition of the items", tc.n)
				break
			}
		}
	}
}

// referenceKNNError is KNNError by the book: the split, then
// referenceCrossKNNError with k = ⌊log₂ n⌋ of all n points.
func referenceKNNError(x *mat.Dense, labels []int, seed uint64) float64 {
	n, d := x.Dims()
	train, test := splitIndices(n, seed)
	rows := func(items []int) (*mat.Dense, []int) {
		m, l := mat.NewDense(len(items), d, nil), make([]int, len(items))
		for r, i := range items {
			m.SetRow(r, x.RawRowView(i))
			l[r] = labels[i]
		}
		return m, l
	}
	trainX, trainY := rows(train)
	testX, testY := rows(test)
	return referenceCrossKNNError(trainX, trainY, testX, testY, int(math.Floor(math.Log2(float64(n)))))
}

func TestKNNError(t *testing.T) {
	n := 600
	x := testpoints.Gaussian(n, 3, 4)
	// Labels from the sign pattern of the first two coordinates, with 10%
	// relabelled at random: a learnable task with some error.
	rng := rand.New(rand.NewPCG(9, 9))
	labels := make([]int, n)
	for i := range n {
		if x.At(i, 0) > 0 {
			labels[i]++
		}
		if x.At(i, 1) > 0 {
			labels[i] += 2
		}
		if rng.Float64() < 0.1 {
			labels[i] = rng.IntN(4) - 5 // negative labels are labels too
		}
	}
	for _, seed := range []uint64{1, 2} {
		got, err := KNNError(x, labels, seed)
		if err != nil {
			t.Fatal(err)
		}
		if want := referenceKNNError(x, labels, seed); got != want {
			t.Errorf("seed %d: KNNError = %v, reference implementation gives %v", seed, got, want)
		}
		if got < 0.03 || got > 0.3 {
			t.Errorf("seed %d: error %v outside the plausible range for 10%% label noise", seed, got)
		}
		again, _ := KNNError(x, labels, seed)
		if again != got {
			t.Errorf("seed %d: repeated call gives %v, first %v", seed, again, got)
		}
	}
}

func TestKNNErrorSeparated(t *testing.T) {
	// Two tight clusters far apart, labelled by cluster: every test point's
	// neighbours are its own cluster, whatever the split.
	n := 200
	x := testpoints.Gaussian(n, 2, 5)
	labels := make([]int, n)
	for i := range n {
		if i%2 == 1 {
			x.Set(i, 0, x.At(i, 0)+100)
			labels[i] = 7
		}
	}
	for seed := range uint64(3) {
		if got, err := KNNError(x, labels, seed); err != nil || got != 0 {
			t.Errorf("seed %d: KNNError = %v (%v), want 0", seed, got, err)
		}
	}
}

func TestKNNErrorErrors(t *testing.T) {
	x := testpoints.Gaussian(5, 2, 1)
	withNaN := mat.DenseCopyOf(x)
	withNaN.Set(1, 1, math.NaN())
	huge := mat.DenseCopyOf(x)
	huge.Set(4, 0, 1e200)
	tests := []struct {
		name   string
		x      *mat.Dense
		labels []int
		want   string
	}{
		{"one point", testpoints.Gaussian(1, 2, 1), []int{0}, "need at least 2 points for a 70/30 split, have 1"},
		{"NaN", withNaN, make([]int, 5), "point 1 has NaN in column 1"},
		{"overflow", huge, make([]int, 5), "point 4 is too large"},
	}
	for _, tc := range tests {
		_, err := KNNError(tc.x, tc.labels, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

// BenchmarkKNNError is the MNIST-sized case: n = 60000 points in 50
// dimensions, 10 classes.
func BenchmarkKNNError(b *testing.B) {
	const n, d = 60000, 50
	x := testpoints.Gaussian(n, d, 1)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i % 10
	}
	for b.Loop() {
		if _, err := KNNError(x, labels, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTripletError scores 10M triplets over 60000 items in 2-D.
func BenchmarkTripletError(b *testing.B) {
	x := testpoints.Gaussian(60000, 2, 1)
	s, err := triplets.Random(x, 10_000_000, triplets.Noise{}, 1, 0)
	if err != nil {
		b.Fatal(err)
	}
	emb := testpoints.Gaussian(60000, 2, 2)
	for b.Loop() {
		TripletError(emb, s)
	}
	b.ReportMetric(float64(s.Len())*float64(b.N)/b.Elapsed().Seconds(), "triplets/s")
}

// BenchmarkProcrustes compares 60000 points in 50 dimensions with a 2-D
// embedding.
func BenchmarkProcrustes(b *testing.B) {
	truth := testpoints.Gaussian(60000, 50, 1)
	emb := testpoints.Gaussian(60000, 2, 2)
	for b.Loop() {
		if _, err := Procrustes(truth, emb); err != nil {
			b.Fatal(err)
		}
	}
}

// TestIndependentOfThreads checks that TripletError and KNNError, which
// split their work over GOMAXPROCS goroutines, give the same numbers for
// 1, 2, 3 and 7 of them, on inputs of several work chunks.
func TestIndependentOfThreads(t *testing.T) {
	x := testpoints.Gaussian(2000, 3, 6)
	s, err := triplets.Random(x, 5*tripletsPerTask+7, triplets.Noise{}, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	emb := testpoints.Gaussian(2000, 2, 7)
	labels := make([]int, 2000)
	for i := range labels {
		labels[i] = int(math.Floor(2 * x.At(i, 0)))
	}
	measure := func(threads int) (float64, float64) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
		knn, err := KNNError(emb, labels, 3)
		if err != nil {
			t.Fatal(err)
		}
		return TripletError(emb, s), knn
	}
	tripletOne, knnOne := measure(1)
	for _, threads := range []int{2, 3, 7} {
		if tr, knn := measure(threads); tr != tripletOne || knn != knnOne {
			t.Errorf("%d threads: triplet error %v, kNN error %v; 1 thread: %v, %v", threads, tr, knn, tripletOne, knnOne)
		}
	}
}
