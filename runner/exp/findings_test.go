package exp

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/oe-lab/oe/lib/embed"
)

// ok returns an OK result of run with the given metric values.
func ok(run Run, metrics map[string]float64) Result {
	return Result{Run: run, Used: run.Dataset, Status: OK, Metrics: metrics}
}

// withTestError returns an OK run of alg on dataset with that test error.
func withTestError(alg, dataset string, v float64) Result {
	return ok(Run{Dataset: dataset, Algorithm: alg, Dim: 2}, map[string]float64{TestError: v})
}

func TestEveryGroup(t *testing.T) {
	// The rule: mean test error below 0.5.
	rule := func(rs Results) (bool, string) {
		m := rs.Mean(TestError)
		return m < 0.5, strings.Replace(Format(TestError, m), "—", "NaN", 1)
	}
	failed := Result{Run: Run{Dataset: "usps", Algorithm: "soe"}, Status: Failed}
	nan := ok(Run{Dataset: "usps", Algorithm: "soe"}, map[string]float64{TestError: math.NaN()})
	missing := Result{Run: Run{Dataset: "usps", Algorithm: "ste"}, Status: Missing}
	tests := []struct {
		name    string
		rs      Results
		share   float64
		verdict Verdict
		numbers string
	}{
		{"every group holds", Results{withTestError("soe", "char", 0.1), withTestError("soe", "usps", 0.2), withTestError("ste", "char", 0.3)}, 1,
			Pass, "2 of 2 hold — ✓ char: 0.200; ✓ usps: 0.200"},
		{"one group fails", Results{withTestError("soe", "char", 0.1), withTestError("soe", "usps", 0.7)}, 1,
			Fail, "1 of 2 hold — ✓ char: 0.100; ✗ usps: 0.700"},
		{"most: 2 of 3", Results{withTestError("soe", "a", 0.1), withTestError("soe", "b", 0.7), withTestError("soe", "c", 0.2)}, 0.5,
			Pass, "2 of 3 hold — ✓ a: 0.100; ✗ b: 0.700; ✓ c: 0.200"},
		{"most: 1 of 2 is not more than half", Results{withTestError("soe", "a", 0.1), withTestError("soe", "b", 0.7)}, 0.5,
			Fail, "1 of 2 hold — ✓ a: 0.100; ✗ b: 0.700"},
		{"a group without a value is not judged", Results{withTestError("soe", "char", 0.1), nan}, 1,
			Pass, "1 of 1 hold — ✓ char: 0.100; – usps: not applicable (NaN)"},
		{"no group judged", Results{nan}, 1, NotChecked, "– usps: not applicable (NaN)"},
		{"failed runs are left out", Results{failed}, 1, NotChecked, "no runs to check it on: 1 declared: 0 ok, 0 missing, 1 failed"},
		{"failed runs count as no value", Results{withTestError("soe", "usps", 0.2), failed}, 1,
			Pass, "1 of 1 hold — ✓ usps: 0.200"},
		{"a group whose runs all failed is not judged", Results{withTestError("soe", "char", 0.1), failed}, 1,
			Pass, "1 of 1 hold — ✓ char: 0.100; – usps: not applicable (all 1 runs failed)"},
		// Without the missing run, usps's mean would be 0.7 and fail the
		// finding: a group is judged once complete, not on part of it.
		{"a group with a missing run is not judged", Results{withTestError("soe", "char", 0.1), withTestError("soe", "usps", 0.7), missing}, 1,
			Pass, "1 of 1 hold — ✓ char: 0.100; – usps: 1 of 2 runs missing"},
		{"only missing runs beside the OK ones", Results{withTestError("soe", "usps", 0.1), missing}, 1,
			NotChecked, "– usps: 1 of 2 runs missing"},
		{"no runs", nil, 1, NotChecked, "no runs to check it on: none declared at this profile"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, nums := tc.rs.EveryDataset(rule, tc.share)
			if v != tc.verdict || nums != tc.numbers {
				t.Errorf("got %s, %q; want %s, %q", v, nums, tc.verdict, tc.numbers)
			}
		})
	}
	// A group's missing runs come with their estimated cost.
	costly := missing
	costly.estimate = 3 * time.Hour
	if _, nums := (Results{withTestError("soe", "char", 0.1), costly, costly}).EveryDataset(rule, 1); !strings.Contains(nums, "– usps: 2 of 2 runs missing (estimated 6h00m)") {
		t.Errorf("missing runs with estimates: %q", nums)
	}
	// Scoped to the methods a rule compares, another method's missing run
	// does not hold the group back.
	scoped := Results{withTestError("soe", "usps", 0.2), missing}.OfAlgorithms("soe")
	if v, nums := scoped.EveryDataset(rule, 1); v != Pass || nums != "1 of 1 hold — ✓ usps: 0.200" {
		t.Errorf("scoped to soe: %s, %q; want PASS on usps", v, nums)
	}
	// Grouping by another key, in order of first appearance.
	rs := Results{withTestError("soe", "char", 0.1), withTestError("ste", "usps", 0.2), withTestError("soe", "usps", 0.9)}
	v, nums := rs.EveryGroup(func(r Result) string { return r.Run.Algorithm }, rule, 1)
	if want := "1 of 2 hold — ✗ soe: 0.500; ✓ ste: 0.200"; v != Fail || nums != want {
		t.Errorf("by algorithm: %s, %q; want FAIL, %q", v, nums, want)
	}
}

func TestArgminRankMeasured(t *testing.T) {
	// SOE's mean is 0.2 over two repetitions; STE and t-STE tie at 0.15;
	// GNMDS is missing and CKL failed, so neither has a value.
	rs := Results{
		withTestError("soe", "char", 0.1), withTestError("soe", "char", 0.3),
		withTestError("ste", "char", 0.15), withTestError("tste", "char", 0.15),
		{Run: Run{Dataset: "char", Algorithm: "gnmds"}, Status: Missing},
		{Run: Run{Dataset: "char", Algorithm: "ckl"}, Status: Failed},
	}
	all := []string{"soe", "ste", "tste", "gnmds", "ckl"}
	if a, v := rs.Argmin(all, TestError); a != "ste" || v != 0.15 {
		t.Errorf("Argmin = %s %v, want ste 0.15 (the first of a tie)", a, v)
	}
	if a, v := rs.Argmin([]string{"gnmds", "ckl"}, TestError); a != "" || !math.IsInf(v, 1) {
		t.Errorf("Argmin without values = %q %v, want \"\" +Inf", a, v)
	}
	maxScore := func(s Results) float64 { _, hi := s.MeanRange("rep", TestError); return -hi }
	if a, _ := rs.ArgminBy(all, maxScore); a != "soe" {
		t.Errorf("ArgminBy(−mean) = %s, want soe", a)
	}
	ranks := []struct {
		alg  string
		want int
	}{{"ste", 1}, {"tste", 2}, {"soe", 3}, {"gnmds", 0}, {"lloe", 0}}
	for _, tc := range ranks {
		if got := rs.Rank(all, TestError, tc.alg); got != tc.want {
			t.Errorf("Rank(%s) = %d, want %d", tc.alg, got, tc.want)
		}
	}
	if got := rs.Measured(all, TestError); got != 3 {
		t.Errorf("Measured = %d, want 3", got)
	}
}

// sweep returns OK results of alg along a numeric field, one per value.
func sweep(alg, field string, xs []float64, metric string, ys []float64) Results {
	var rs Results
	for i, x := range xs {
		r := Run{Dataset: "char", Algorithm: alg, Dim: 2}
		switch field {
		case "n":
			r.N = int(x)
		case "lambda":
			r.Lambda = x
		case "max_epochs":
			r.MaxEpochs = int(x)
		case "noise_level":
			r.Noise, r.NoiseLevel = Bernoulli, x
		}
		rs = append(rs, ok(r, map[string]float64{metric: ys[i]}))
	}
	return rs
}

func TestExtremesAndEndpoints(t *testing.T) {
	rs := sweep("soe", "max_epochs", []float64{50, 10, 150, 150}, TrainError, []float64{0.2, 0.4, 0.05, 0.15})
	if got := rs.AtLargest("max_epochs"); len(got) != 2 || got.Mean(TrainError) != 0.1 {
		t.Errorf("AtLargest: %d results, mean %v; want 2, 0.1", len(got), got.Mean(TrainError))
	}
	if got := rs.AtSmallest("max_epochs"); len(got) != 1 || got[0].Run.MaxEpochs != 10 {
		t.Errorf("AtSmallest: %v", got)
	}
	if lo, hi := rs.Endpoints("max_epochs", TrainError); lo != 0.4 || hi != 0.1 {
		t.Errorf("Endpoints = %v, %v; want 0.4 (10 epochs), 0.1 (150)", lo, hi)
	}
	if lo, hi := (Results{}).Endpoints("max_epochs", TrainError); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("Endpoints of nothing = %v, %v; want NaN", lo, hi)
	}
	levels := sweep("soe", "noise_level", []float64{0.3, 0.1, 0.2}, TestError, []float64{0.3, 0.1, 0.2})
	if got := levels.AtSmallest("noise_level"); got[0].Field("noise_level") != "0.1" {
		t.Errorf("AtSmallest(noise_level) = %s", got[0].Field("noise_level"))
	}
}

func TestMeanRange(t *testing.T) {
	rs := sweep("soe", "n", []float64{100, 200, 400}, TestError, []float64{0.05, 0.02, 0.04})
	rs = append(rs, Result{Run: Run{Dataset: "char", Algorithm: "soe", N: 800}, Status: Failed})
	if lo, hi := rs.MeanRange("n", TestError); lo != 0.02 || hi != 0.05 {
		t.Errorf("MeanRange = %v, %v; want 0.02, 0.05 (n = 800 failed: no value)", lo, hi)
	}
	if lo, hi := rs.Where("n", "800").MeanRange("n", TestError); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("MeanRange without values = %v, %v; want NaN", lo, hi)
	}
}

func TestMedianCurve(t *testing.T) {
	// λ appears as 2, 0.5, 1; at λ = 1 only two methods have a value, at
	// λ = 4 none.
	var rs Results
	rs = append(rs, sweep("soe", "lambda", []float64{2, 0.5, 1}, Procrustes, []float64{0.1, 0.9, 0.3})...)
	rs = append(rs, sweep("ste", "lambda", []float64{2, 0.5, 1}, Procrustes, []float64{0.2, 0.8, 0.5})...)
	rs = append(rs, sweep("gnmds", "lambda", []float64{2, 0.5}, Procrustes, []float64{0.6, 1.0})...)
	rs = append(rs, Result{Run: Run{Dataset: "char", Algorithm: "soe", Lambda: 4}, Status: Failed})
	xs, med := rs.MedianCurve("lambda", Procrustes, []string{"soe", "ste", "gnmds"})
	if want := []float64{0.5, 1, 2}; !reflect.DeepEqual(xs, want) {
		t.Errorf("values %v, want %v", xs, want)
	}
	// Medians by hand: {0.8, 0.9, 1.0} → 0.9; {0.3, 0.5} → 0.4; {0.1, 0.2, 0.6} → 0.2.
	want := []float64{0.9, 0.4, 0.2}
	for i := range want {
		if i >= len(med) || math.Abs(med[i]-want[i]) > 1e-12 {
			t.Fatalf("medians %v, want %v", med, want)
		}
	}
}

func TestSlope(t *testing.T) {
	// Fit times c·n (slope 1) and c·n² (slope 2) over n = 100, 200, 400;
	// ckl's time 0 at n = 100 is left out of its fit.
	var rs Results
	rs = append(rs, sweep("soe", "n", []float64{100, 200, 400}, FitSeconds, []float64{1, 2, 4})...)
	rs = append(rs, sweep("gnmds", "n", []float64{100, 200, 400}, FitSeconds, []float64{1, 4, 16})...)
	rs = append(rs, sweep("ckl", "n", []float64{100, 200, 400}, FitSeconds, []float64{0, 3, 12})...)
	rs = append(rs, sweep("forte", "n", []float64{100}, FitSeconds, []float64{5})...)
	tests := []struct {
		alg  string
		want float64
	}{{"soe", 1}, {"gnmds", 2}, {"ckl", 2}, {"forte", math.NaN()}}
	for _, tc := range tests {
		got := rs.Where("algorithm", tc.alg).Slope("n", FitSeconds)
		if !(math.Abs(got-tc.want) < 1e-12 || math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("Slope(%s) = %v, want %v", tc.alg, got, tc.want)
		}
	}
	if lo, hi := rs.SlopeRange([]string{"soe", "gnmds", "forte"}, "n", FitSeconds); math.Abs(lo-1) > 1e-12 || math.Abs(hi-2) > 1e-12 {
		t.Errorf("SlopeRange = %v, %v; want 1, 2", lo, hi)
	}
	if lo, hi := rs.SlopeRange([]string{"forte", "lloe"}, "n", FitSeconds); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("SlopeRange without slopes = %v, %v; want NaN", lo, hi)
	}
}

func TestShortfallAndConverged(t *testing.T) {
	run := Run{Dataset: "char", Algorithm: "soe"}
	stopped := func(reason string) Result {
		r := ok(run, map[string]float64{ConvergeSeconds: 1})
		r.StopReason = reason
		return r
	}
	rs := Results{stopped("converged"), stopped("max-epochs"), stopped("done"), stopped("canceled"),
		{Run: run, Status: Missing}, {Run: run, Status: Failed, StopReason: "converged"}}
	tests := []struct {
		name string
		rs   Results
		want string
	}{
		{"none", nil, "none declared at this profile"},
		{"mixed", rs, "6 declared: 4 ok, 1 missing, 1 failed"},
	}
	for _, tc := range tests {
		if got := tc.rs.Shortfall(); got != tc.want {
			t.Errorf("%s: Shortfall = %q, want %q", tc.name, got, tc.want)
		}
	}
	// Only the fits the stopping rule ended, or that had none to end them.
	var reasons []string
	for _, r := range rs.Converged() {
		reasons = append(reasons, r.StopReason)
	}
	if want := []string{"converged", "done"}; !reflect.DeepEqual(reasons, want) {
		t.Errorf("Converged kept %v, want %v", reasons, want)
	}
}

func TestArgmax(t *testing.T) {
	rs := Results{withTestError("soe", "char", 0.1), withTestError("ste", "char", 0.4), withTestError("tste", "char", 0.4),
		{Run: Run{Dataset: "char", Algorithm: "ckl"}, Status: Failed}}
	tests := []struct {
		name string
		algs []string
		alg  string
		v    float64
	}{
		{"the first of a tie", []string{"soe", "ste", "tste", "ckl"}, "ste", 0.4},
		{"order decides a tie", []string{"tste", "ste"}, "tste", 0.4},
		{"no value", []string{"ckl"}, "", math.Inf(-1)},
	}
	for _, tc := range tests {
		if a, v := rs.Argmax(tc.algs, TestError); a != tc.alg || v != tc.v {
			t.Errorf("%s: Argmax = %s %v, want %s %v", tc.name, a, v, tc.alg, tc.v)
		}
	}
}

func TestLogLogSlope(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name   string
		xs, ys []float64
		want   float64
	}{
		{"linear", []float64{1, 2, 4}, []float64{3, 6, 12}, 1},
		{"quadratic", []float64{10, 100}, []float64{1, 100}, 2},
		{"logarithmic growth is flatter than linear: 6→12 over 64→4096", []float64{64, 4096}, []float64{6, 12}, math.Log(2) / math.Log(64)},
		{"non-positive and NaN points left out", []float64{1, 2, 3, 4}, []float64{1, 0, nan, 16}, 2},
		{"one point", []float64{1, 2}, []float64{1, -1}, nan},
		{"one x", []float64{2, 2}, []float64{1, 3}, nan},
	}
	for _, tc := range tests {
		got := LogLogSlope(tc.xs, tc.ys)
		if !(math.Abs(got-tc.want) < 1e-12 || math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("%s: LogLogSlope = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestTrainErrorAt(t *testing.T) {
	nan := math.NaN()
	trace := func(errs map[int]float64, last int) []embed.Epoch {
		var tr []embed.Epoch
		for e := 1; e <= last; e++ {
			v, ok := errs[e]
			if !ok {
				v = nan
			}
			tr = append(tr, embed.Epoch{Epoch: e, TrainError: v})
		}
		return tr
	}
	// Run a checks every 50 epochs and stopped at 150; run b checked every
	// epoch to 200 (NoStop), its error falling by 0.001 an epoch from 0.3.
	a := ok(Run{Algorithm: "oenn"}, nil)
	a.Trace = trace(map[int]float64{50: 0.4, 100: 0.2, 150: 0.1}, 150)
	every := map[int]float64{}
	for e := 1; e <= 200; e++ {
		every[e] = 0.3 - 0.001*float64(e)
	}
	b := ok(Run{Algorithm: "oenn"}, nil)
	b.Trace = trace(every, 200)
	failed := Result{Run: Run{Algorithm: "oenn"}, Status: Failed, Trace: trace(map[int]float64{1: 0.9}, 1)}
	rs := Results{a, b, failed}
	tests := []struct {
		epoch int
		want  float64
	}{
		{10, 0.29},              // only b has measured
		{75, (0.4 + 0.225) / 2}, // a's check at 50, b's at 75
		{200, (0.1 + 0.1) / 2},  // a stopped at 150 with 0.1
		{1000, (0.1 + 0.1) / 2}, // past every trace's end
		{0, nan},                // nothing measured yet
	}
	for _, tc := range tests {
		got := rs.TrainErrorAt(tc.epoch)
		if !(math.Abs(got-tc.want) < 1e-12 || math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("TrainErrorAt(%d) = %v, want %v", tc.epoch, got, tc.want)
		}
	}
}

func TestSmallestReaching(t *testing.T) {
	// OENN's train error by n and width: it reaches 0.05 at width 20 for
	// n = 32, at 40 for n = 64 (widths out of order), never for n = 128.
	cell := func(n int, width, te float64) Result {
		return ok(Run{Dataset: "uniform", Algorithm: "oenn", N: n, Params: map[string]float64{"width": width}}, map[string]float64{TrainError: te})
	}
	rs := Results{
		cell(64, 40, 0.04), cell(32, 10, 0.2), cell(32, 20, 0.05), cell(32, 40, 0.01),
		cell(64, 10, 0.3), cell(64, 20, 0.1), cell(128, 40, 0.2),
	}
	xs, ys := rs.SmallestReaching("n", "param:width", TrainError, 0.05)
	if want := []float64{32, 64}; !reflect.DeepEqual(xs, want) {
		t.Errorf("n values %v, want %v", xs, want)
	}
	if want := []float64{20, 40}; !reflect.DeepEqual(ys, want) {
		t.Errorf("widths %v, want %v", ys, want)
	}
}

func TestVerdictOf(t *testing.T) {
	if VerdictOf(true) != Pass || VerdictOf(false) != Fail {
		t.Error("VerdictOf")
	}
}

// The rule of experiments/reproduction.go's first finding: SOE's test error
// is within 0.005 of the lowest on every dataset.
func ExampleResults_EveryDataset() {
	rs := Results{
		withTestError("soe", "char", 0.030), withTestError("ste", "char", 0.040),
		withTestError("soe", "usps", 0.052), withTestError("ste", "usps", 0.041),
	}
	v, numbers := rs.EveryDataset(func(ds Results) (bool, string) {
		best, lowest := ds.Argmin([]string{"soe", "ste"}, TestError)
		soe := ds.Where("algorithm", "soe").Mean(TestError)
		return soe <= lowest+0.005, fmt.Sprintf("SOE %.3f, best %s %.3f", soe, best, lowest)
	}, 1)
	fmt.Println(v)
	fmt.Println(numbers)
	// Output:
	// FAIL
	// 1 of 2 hold — ✓ char: SOE 0.030, best soe 0.030; ✗ usps: SOE 0.052, best ste 0.041
}

// TestLabeled keeps every run on a labelled dataset, a missing one too, and
// none on a dataset without labels, whatever their values.
func TestLabeled(t *testing.T) {
	charOK := ok(Run{Dataset: "char", Algorithm: "soe"}, map[string]float64{KNNError: 0.05})
	charMissing := Result{Run: Run{Dataset: "char", Algorithm: "oenn"}, Used: "char", Status: Missing}
	standIn := Result{Run: Run{Dataset: "usps", Algorithm: "soe"}, Used: "fmnist", Status: Missing}
	uniform := ok(Run{Dataset: "uniform", Algorithm: "soe"}, map[string]float64{KNNError: math.NaN()})
	got := Results{charOK, charMissing, standIn, uniform}.Labeled()
	if len(got) != 3 || got[0].Run.Algorithm != "soe" || got[1].Status != Missing || got[2].Used != "fmnist" {
		t.Fatalf("Labeled kept %v, want char's two runs and the stand-in's", got)
	}
	// Judged by EveryDataset, char waits for its missing run.
	v, nums := got.EveryDataset(func(rs Results) (bool, string) { return true, "" }, 1)
	if v != NotChecked || !strings.Contains(nums, "char: 1 of 2 runs missing") {
		t.Errorf("EveryDataset on Labeled: %v, %q; want not checked, char missing a run", v, nums)
	}
}
