package plan

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/hostinfo"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/report"
	"github.com/oe-lab/oe/runner/store"
)

// TestEstimateByHand checks one estimate of the default model against the
// formula worked by hand: SOE on 100 uniform points (unlabelled, 2D), d = 2,
// λ = 2: T = ⌈2·100·2·log₂100⌉ = 2,658 triplets, 150 epochs (the stopping
// rule's typical count), so fit 4.2e-10·150·2,658·(2+50) = 8.707608 ms,
// setup 3.6e-9·2,658·(2+50) = 0.4975776 ms (no load time measured),
// evaluation 7.9e-10·100·2·2 = 0.000316 ms.
func TestEstimateByHand(t *testing.T) {
	got := Default().Estimate(job.Config{Dataset: "uniform", N: 100, Dim: 2, Lambda: 2, Algorithm: "soe", Backend: job.CPU})
	if want := 9.2055016e-3; math.Abs(got.Seconds()-want) > 1e-8 {
		t.Errorf("estimate %v, want %.7f ms", got, want*1e3)
	}
}

// TestFitWork checks the work formulas of the families (see Model) on
// sizes where they differ.
func TestFitWork(t *testing.T) {
	char := func(alg string, maxEpochs int) job.Config {
		return job.Config{Dataset: "char", Dim: 30, Lambda: 2, Algorithm: alg, MaxEpochs: maxEpochs}
	}
	m := Default()
	work := func(c job.Config) float64 {
		meth := methods[c.Algorithm]
		return sizeOf(c).fitWork(c, m.epochs(c, meth))
	}
	// CHAR at the paper's size: n = 1,797 (lib/datasets), T = 1,165,683
	// (bench/char.md).
	const n, d, T = 1797.0, 30.0, 1165683.0
	oennWidth := float64(int(2 * d * math.Log2(n)))
	tests := []struct {
		name string
		c    job.Config
		want float64
	}{
		{"soe: epochs × T × (d + 50), 150 epochs", char("soe", 0), 150 * T * (d + 50)},
		{"a cap below the typical epochs counts", char("soe", 40), 40 * T * (d + 50)},
		{"gnmds: 2 batches of 10⁶, each a pattern of 2T entries times the n×d block, and n×45 blocks (45 = 30 + 15 oversampled)",
			char("gnmds", 0), 150 * 2 * (2*T*d + 700*n*45)},
		{"ckl in batches of 400,000: 3 projections an epoch", job.Config{Dataset: "char", Dim: 30, Lambda: 2, Algorithm: "ckl", BatchSize: 400000},
			150 * 3 * (2*T*d + 700*n*45)},
		{"ckl as the authors' code ran it: one projection", job.Config{Dataset: "char", Dim: 30, Lambda: 2, Algorithm: "ckl",
			Params: map[string]float64{"variant": 1}}, 150 * (2*T*d + 700*n*45)},
		{"forte: full-batch, and the pattern saturates at n² entries; blocks of 10 + 5 columns",
			job.Config{Dataset: "uniform", N: 100, Dim: 10, Lambda: 2, Algorithm: "forte"}, 150 * (100*100*10 + 700*100*15)},
		{"ckl in d = 2: one batch, blocks of 2 + 4 columns", job.Config{Dataset: "uniform", N: 10000, Dim: 2, Lambda: 0.05, Algorithm: "ckl"},
			150 * (2*math.Ceil(0.05*10000*2*math.Log2(10000))*2 + 700*10000*6)},
		{"oenn: 24 batches of at most n distinct items through 11 → w → w → w → 30, w = 2·30·log₂1797", char("oenn", 0),
			150 * (math.Ceil(T/50000)*n*oennWidth*(11+2*oennWidth+d) + 12*T*(d+50))},
		{"oenn of the width and input length its params give", job.Config{Dataset: "char", Dim: 30, Lambda: 2, Algorithm: "oenn",
			Params: map[string]float64{"width": 10, "inputlen": 16}}, 150 * (math.Ceil(T/50000)*n*10*(16+2*10+d) + 12*T*(d+50))},
		{"loe: every iteration, whatever the stopping rule", char("loe", 0), 500 * T},
		{"lloe: SOE on 898 items, then 1,797 insertions", char("lloe", 0),
			500*math.Ceil(2*898*d*math.Log2(898))*(d+50) + n*2*(d+1)*100*d},
	}
	for _, tc := range tests {
		if got := work(tc.c); math.Abs(got-tc.want) > 1e-9*tc.want {
			t.Errorf("%s: work %.6g, want %.6g", tc.name, got, tc.want)
		}
	}
	if Items(char("soe", 0)) != 1797 {
		t.Errorf("CHAR at its paper size: %d items, want 1797", Items(char("soe", 0)))
	}
}

// TestCalibrate records runs whose fit took exactly 2e-9 s per unit of
// work: the calibrated model must find that rate, and the converged runs'
// median epochs; an optimiser's runs have their own rate, and runs on
// people's comparisons are not measured.
func TestCalibrate(t *testing.T) {
	ctx := context.Background()
	st := openTemp(t)
	const rate = 2e-9
	converged, capped := embed.StopConverged.String(), embed.StopMaxEpochs.String()
	recorded := []struct {
		dataset      string
		n, d, epochs int
		stop         string
	}{
		{"uniform", 50, 2, 100, converged}, {"uniform", 100, 2, 150, converged}, {"uniform", 200, 2, 300, converged}, {"uniform", 400, 2, 1000, capped},
		{"gmm", 100, 5, 400, converged}, {"gmm", 100, 5, 450, converged}, {"gmm", 100, 10, 500, converged}, {"gmm", 100, 10, 600, converged},
	}
	for i, r := range recorded {
		c, err := job.Config{Dataset: r.dataset, N: r.n, Dim: r.d, Lambda: 2, Algorithm: "soe", Seed: uint64(i)}.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		sz := sizeOf(c.Config)
		out := &job.Outcome{StopReason: r.stop, Metrics: map[string]float64{
			job.FitSeconds: rate * sz.fitWork(c.Config, r.epochs), job.Epochs: float64(r.epochs),
			job.Items: float64(r.n), job.DataDim: float64(sz.dataDim), job.SetupSeconds: 0, job.EvalSeconds: 0}}
		if err := st.Put(ctx, store.Record{Job: c, Status: store.OK, Outcome: out, Start: time.Now(), End: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	// An L-BFGS run at three times the rate is measured apart; a run on a
	// dataset of comparisons, whose triplets λ does not count, is not
	// measured.
	for i, extra := range []struct {
		dataset, optimizer string
		rate               float64
	}{{"uniform", "lbfgs", 3 * rate}, {"material", "", 100 * rate}} {
		c, err := job.Config{Dataset: extra.dataset, N: 100, Dim: 2, Lambda: 2, Algorithm: "soe", Optimizer: extra.optimizer, Seed: uint64(10 + i)}.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		out := &job.Outcome{StopReason: embed.StopMaxEpochs.String(), Metrics: map[string]float64{
			job.FitSeconds: extra.rate * sizeOf(c.Config).fitWork(c.Config, 100), job.Epochs: 100,
			job.Items: 100, job.DataDim: 2, job.SetupSeconds: 0, job.EvalSeconds: 0}}
		if err := st.Put(ctx, store.Record{Job: c, Status: store.OK, Outcome: out, Start: time.Now(), End: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	m, err := Calibrate(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if m.Calibrated != 9 {
		t.Errorf("calibrated on %d runs, want 9 (not the material run)", m.Calibrated)
	}
	if got := m.rate("soe", "lbfgs", job.CPU, 0, methods["soe"]); math.Abs(got-3*rate) > 1e-12*rate {
		t.Errorf("soe with lbfgs: rate %g, want %g", got, 3*rate)
	}
	if got := m.rate("ste", "lbfgs", job.CPU, 0, methods["ste"]); got != methods["ste"].rate {
		t.Errorf("ste with lbfgs, never recorded: rate %g, want the default %g", got, methods["ste"].rate)
	}
	if got := m.rate("soe", "", job.CPU, 0, methods["soe"]); math.Abs(got-rate) > 1e-12*rate {
		t.Errorf("soe's rate %g, want %g", got, rate)
	}
	if got := m.rate("soe", "", job.CUDA, 0, methods["soe"]); math.Abs(got-rate) > 1e-12*rate {
		t.Errorf("soe on cuda, never recorded: rate %g, want the cpu rate %g", got, rate)
	}
	if got := m.rate("ste", "", job.CPU, 0, methods["ste"]); got != methods["ste"].rate {
		t.Errorf("ste, never recorded: rate %g, want the default %g", got, methods["ste"].rate)
	}
	// Epochs: the median of the converged runs on the dataset at the d
	// where three converged, else on the dataset, else of all.
	for _, e := range []struct {
		dataset string
		d, want int
		why     string
	}{
		{"uniform", 2, 150, "uniform's three at d = 2"},
		{"gmm", 10, 475, "gmm's four (two at d = 10)"},
		{"gmm", 5, 475, "gmm's four (two at d = 5)"},
		{"char", 2, 400, "all seven converged"},
	} {
		c := job.Config{Dataset: e.dataset, N: 1000, Dim: e.d, Lambda: 2, Algorithm: "soe"}
		if got := m.epochs(c, methods["soe"]); got != e.want {
			t.Errorf("%s at d = %d: typical epochs %d, want %d, the median of %s", e.dataset, e.d, got, e.want, e.why)
		}
	}
	if got := m.epochs(job.Config{Dataset: "gmm", N: 1000, Dim: 10, Lambda: 2, Algorithm: "soe", MaxEpochs: 200}, methods["soe"]); got != 200 {
		t.Errorf("a cap of 200 below the typical epochs: %d", got)
	}
}

// putRun records an ok run of c with the given fit and setup seconds and
// epochs (no evaluation time).
func putRun(t *testing.T, st *store.Store, c job.Config, fitSeconds, setupSeconds float64, epochs int) {
	t.Helper()
	nc, err := c.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	sz := sizeOf(nc.Config)
	out := &job.Outcome{StopReason: embed.StopMaxEpochs.String(), Metrics: map[string]float64{
		job.FitSeconds: fitSeconds, job.Epochs: float64(epochs), job.Items: float64(sz.n), job.DataDim: float64(sz.dataDim),
		job.SetupSeconds: setupSeconds, job.EvalSeconds: 0}}
	if err := st.Put(context.Background(), store.Record{Job: nc, Status: store.OK, Outcome: out, Start: time.Now(), End: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

func TestMemoryClass(t *testing.T) {
	for _, tc := range []struct{ n, d, want int }{
		{100, 2, 0}, {16383, 8, 0},
		{16384, 8, 1}, // 1 MiB exactly: the first of class 1
		{16384, 16, 2}, {20000, 30, 3}, {60000, 30, 4}, {60000, 50, 5}, {105600, 2, 1},
	} {
		if got := memoryClass(tc.n, tc.d); got != tc.want {
			t.Errorf("%d×%d: class %d, want %d", tc.n, tc.d, got, tc.want)
		}
	}
}

// TestCalibrateMemoryClasses records SOE runs of small embeddings at one
// rate, two of 4–8 MiB (class 3) at four times it and one of 16–32 MiB
// (class 5, too few alone) at ten times it: a run is estimated at its
// class's rate, or at that of the largest class below holding two runs.
func TestCalibrateMemoryClasses(t *testing.T) {
	st := openTemp(t)
	const rate = 1e-9
	seed := uint64(0)
	put := func(n, d int, r float64) {
		seed++
		c := job.Config{Dataset: "uniform", N: n, Dim: d, Lambda: 1, Algorithm: "soe", Seed: seed, Backend: job.CPU}
		putRun(t, st, c, r*sizeOf(c).fitWork(c, 100), 0, 100)
	}
	for i := range 5 {
		put(1000+i, 10, rate)
	}
	put(20000, 30, 4*rate)
	put(22000, 30, 4*rate)
	put(60000, 50, 10*rate)
	m, err := Calibrate(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n, d int
		want float64
		why  string
	}{
		{2000, 10, rate, "class 0's own"},
		{10000, 30, rate, "class 2 holds none: class 0's"},
		{21000, 30, 4 * rate, "class 3's own"},
		{60000, 30, 4 * rate, "class 4 holds none: class 3's"},
		{60000, 50, 4 * rate, "class 5 holds one run: class 3's"},
	} {
		got := m.rate("soe", "", job.CPU, memoryClass(tc.n, tc.d), methods["soe"])
		if math.Abs(got-tc.want) > 1e-9*tc.want {
			t.Errorf("%d×%d (class %d): rate %g, want %g, %s", tc.n, tc.d, memoryClass(tc.n, tc.d), got, tc.want, tc.why)
		}
	}
	if got := m.rate("ste", "", job.CPU, 5, methods["ste"]); got != methods["ste"].rate {
		t.Errorf("ste, never recorded, in class 5: rate %g, want the default %g", got, methods["ste"].rate)
	}
}

// TestCalibrateSetup records setups that took exactly 4e-9 s per unit of
// setup work, plus a load time: none on uniform, 10 s on gmm. The setup rate
// must come out near 4e-9 (the loads add to it), each dataset's load near
// its own, and a dataset without runs gets the median of all runs' loads.
func TestCalibrateSetup(t *testing.T) {
	st := openTemp(t)
	const rate, gmmLoad = 4e-9, 10.0
	seed := uint64(0)
	put := func(dataset string, n, d int, load float64) {
		seed++
		c := job.Config{Dataset: dataset, N: n, Dim: d, DataDim: d, Lambda: 2, Algorithm: "soe", Seed: seed, Backend: job.CPU}
		putRun(t, st, c, 1, load+rate*sizeOf(c).setupWork(), 100)
	}
	for i := range 3 {
		put("uniform", 200000+i, 50, 0)
	}
	for i := range 5 {
		put("gmm", 200000+i, 50, gmmLoad)
	}
	m, err := Calibrate(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	if r := m.setupRate / rate; r < 1 || r > 1.001 {
		t.Errorf("setup rate %g, want within 0.1%% above %g", m.setupRate, rate)
	}
	for _, tc := range []struct {
		dataset string
		n, d    int
		load    float64
	}{
		{"uniform", 100, 2, 0}, {"uniform", 300000, 50, 0}, {"gmm", 100, 2, gmmLoad}, {"gmm", 300000, 50, gmmLoad},
		{"char", 1797, 30, gmmLoad}, // no runs: the median of the eight's loads, a gmm one's
	} {
		c := job.Config{Dataset: tc.dataset, N: tc.n, Dim: tc.d, DataDim: tc.d, Lambda: 2}
		sz := sizeOf(c)
		want := tc.load + rate*sz.setupWork()
		if got := m.setupSeconds(tc.dataset, sz); math.Abs(got-want) > 0.01*want {
			t.Errorf("%s, %d items, d = %d: setup %.4g s, want %.4g s within 1%%", tc.dataset, tc.n, tc.d, got, want)
		}
	}
}

// TestModelAgainstCHARBench compares the default model with the full-size
// CHAR runs of bench/char.md (fit seconds on two threads, with the epochs
// they took): the model, calibrated on small one-thread runs, must put
// them within a factor of 4 of twice the measured time (one thread).
func TestModelAgainstCHARBench(t *testing.T) {
	bench := []struct {
		alg    string
		fit    float64
		epochs int
	}{
		{"soe", 1.6, 150}, {"ste", 6.1, 150}, {"tste", 8.1, 150}, {"cklx", 4.9, 250}, {"loe", 3.0, 500},
		{"lloe", 3.3, 500}, {"gnmds", 57.4, 200}, {"ckl", 46.2, 200}, {"forte", 57.0, 200}, {"oenn", 259.4, 200},
	}
	m := Default()
	for _, b := range bench {
		c := job.Config{Dataset: "char", Dim: 30, Lambda: 2, Algorithm: b.alg, Backend: job.CPU}
		meth := methods[b.alg]
		est := m.rate(b.alg, "", job.CPU, 0, meth) * sizeOf(c).fitWork(c, b.epochs)
		if r := est / (2 * b.fit); r < 0.25 || r > 4 {
			t.Errorf("%s: estimated %.1f s on one thread, measured %.1f s on two: ratio %.2f to twice that", b.alg, est, b.fit, r)
		}
	}
}

func ExampleModel_Estimate() {
	m := Default() // or Calibrate(ctx, st) on a results database
	for _, alg := range []string{"soe", "forte", "oenn"} {
		c := job.Config{Dataset: "char", Dim: 30, Lambda: 2, Algorithm: alg, Backend: job.CPU}
		fmt.Printf("%s on CHAR (%d items): %s\n", alg, Items(c), report.FormatCost(m.Estimate(c)))
	}
	// Output:
	// soe on CHAR (1797 items): 6.6s
	// forte on CHAR (1797 items): 1m24s
	// oenn on CHAR (1797 items): 7m19s
}

// openTemp returns a new database in the test's temporary folder, closed
// when the test ends.
func openTemp(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestCalibrateSpeed checks that estimates are scaled to the machine they
// are made for by its one-thread runs: runs of machine a at one rate, of b
// at twice it, of c (too few) at four times it, and runs of b on two
// threads (not counted) at half of it.
func TestCalibrateSpeed(t *testing.T) {
	ctx := context.Background()
	st := openTemp(t)
	const rate = 2e-9
	hostA := hostinfo.Host{Name: "a", CPU: "Model A", Cores: 2}
	hostB := hostinfo.Host{Name: "b", CPU: "Model B", Cores: 2}
	hostC := hostinfo.Host{Name: "c", CPU: "Model A", Cores: 16} // another kind: cores differ
	seed := uint64(0)
	put := func(host hostinfo.Host, runs, threads int, r float64) {
		for range runs {
			seed++
			c, err := job.Config{Dataset: "uniform", N: 100 + int(seed), Dim: 2, Lambda: 2, Algorithm: "soe", Seed: seed}.Normalize()
			if err != nil {
				t.Fatal(err)
			}
			sz := sizeOf(c.Config)
			out := &job.Outcome{StopReason: embed.StopMaxEpochs.String(), Threads: threads, Metrics: map[string]float64{
				job.FitSeconds: r * sz.fitWork(c.Config, 100), job.Epochs: 100,
				job.Items: float64(sz.n), job.DataDim: 2, job.SetupSeconds: 0, job.EvalSeconds: 0}}
			if err := st.Put(ctx, store.Record{Job: c, Status: store.OK, Outcome: out, Start: time.Now(), End: time.Now(), Host: host}); err != nil {
				t.Fatal(err)
			}
		}
	}
	put(hostA, 30, 1, rate)
	put(hostB, minMachineRuns, 1, 2*rate)
	put(hostB, 5, 2, rate/2)
	put(hostC, minMachineRuns-1, 1, 4*rate)
	target := job.Config{Dataset: "uniform", N: 5000, Dim: 2, Lambda: 2, Algorithm: "soe", Backend: job.CPU}
	for _, tc := range []struct {
		name     string
		host     hostinfo.Host
		wantRate float64 // the rate the estimate must work out at; 0: the all-machine rate, unscaled
		wantRuns int
	}{
		{"a", hostA, rate, 30},
		{"b", hostB, 2 * rate, minMachineRuns},
		{"c, with too few runs", hostC, 0, 0},
		{"a machine without runs", hostinfo.Host{CPU: "Model D", Cores: 2}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := calibrate(ctx, st, tc.host)
			if err != nil {
				t.Fatal(err)
			}
			if m.MachineRuns != tc.wantRuns {
				t.Errorf("speed measured on %d runs, want %d", m.MachineRuns, tc.wantRuns)
			}
			meth := methods["soe"]
			work := sizeOf(target).fitWork(target, m.epochs(target, meth))
			wantRate := tc.wantRate
			if wantRate == 0 {
				wantRate = m.rate("soe", "", job.CPU, 0, meth)
				if m.Speed != 1 {
					t.Errorf("speed %v, want 1", m.Speed)
				}
			}
			got, want := m.Estimate(target).Seconds(), wantRate*work
			if math.Abs(got-want) > 1e-6*want {
				t.Errorf("estimate %.6g s, want %.6g s (speed %v)", got, want, m.Speed)
			}
		})
	}
}
