package plan

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/gram"
	"github.com/oe-lab/oe/lib/landmark"
	"github.com/oe-lab/oe/lib/oenn"
	"github.com/oe-lab/oe/lib/tripletloss"
	"github.com/oe-lab/oe/lib/triplets"
	"github.com/oe-lab/oe/runner/hostinfo"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/store"
)

// method is what the cost model knows of one algorithm besides its
// embed.Family: its default cap on epochs (the library's) and the seconds
// per unit of fit work measured on the 2-core development machine, used
// where a database holds none of its runs: Calibrate on results.db at
// commit 686a5de (776 quick-profile runs, one thread each), for the
// methods whose work counts tripletCoordinates (soe, ste, tste, cklx, lloe)
// on the paper campaign's database of 2026-11-23 (5,989 runs of the quick
// and paper profiles), and for the Gram methods, whose work counts
// gramBlockWork, on that of 2026-11-29 (697 GNMDS, 716 CKL and 745 FORTE
// runs). batched marks the Gram methods that step and project once per
// batch of gram.DefaultBatchSize triplets, not once per epoch (gramBatches).
type method struct {
	maxEpochs int
	rate      float64
	batched   bool
}

var methods = map[string]method{
	"soe":   {tripletloss.DefaultMaxEpochs, 4.2e-10, false},
	"ste":   {tripletloss.DefaultMaxEpochs, 8.7e-10, false},
	"tste":  {tripletloss.DefaultMaxEpochs, 2.2e-9, false},
	"cklx":  {tripletloss.DefaultMaxEpochs, 7.0e-10, false},
	"gnmds": {gram.DefaultMaxEpochs, 2.1e-9, true},
	"ckl":   {gram.DefaultMaxEpochs, 2.0e-9, true},
	"forte": {gram.DefaultMaxEpochs, 4.4e-9, false},
	"oenn":  {oenn.DefaultMaxEpochs, 7.6e-11, false},
	"loe":   {landmark.DefaultLOEIterations, 3.3e-8, false},
	"lloe":  {landmark.DefaultLLOEPhase1Epochs, 1.1e-9, false},
}

// Defaults of the parts of a run outside the fit: seconds per unit of setup
// work (see size.setupWork), measured on the paper campaign's database of
// 2026-12-03 (the 60,000-item FMNIST runs, whose triplets' distances in 784
// dimensions take 4 to 9 minutes, weigh most), and per unit of evaluation
// work (see size.evalWork), measured as the method rates were.
const (
	defaultSetupRate = 3.6e-9
	defaultEvalRate  = 7.9e-10
	// defaultEpochs is the stopping rule's typical count where no run of a
	// method converged here: it checks every 50 epochs and fires at the
	// second to fourth check on the paper's data.
	defaultEpochs = 150
	// tripletCoordinates is what one triplet of a pass costs beyond its
	// coordinates, in coordinates: reading its indices and three rows and
	// computing two distances cost about as much as 50 coordinates'
	// updates, so a pass costs T·(d + 50), not T·d. Chosen on the 530 SOE,
	// STE, t-STE and CKL-x fits of a second or more in the campaign database
	// of 2026-11-23 (d from 2 to 50; 30 to 200 fit about as well, 0 to 10
	// worse): the median misestimate of their fit times, given their
	// epochs, fell from a factor 1.6–12 (T·d) to 1.5–2.1.
	tripletCoordinates = 50
	// oennTripletWork is what a triplet's pass through OENN's loss costs
	// (its distances, its gradient, the scatter back into the batch's rows)
	// in multiply-adds of the network, per coordinate as above: fitted with
	// the network's term on 932 OENN fits of half a second or more in the
	// campaign database of 2026-11-26 (widths 5 to 640), whose median
	// misestimate it brings to 1.0 with 80 % of them within 0.45–1.3 (the
	// network's term alone: 0.12–2.3, widths ≤ 40 overestimated 5×).
	oennTripletWork = 12
	// gramBlockWork is what one item costs in a projection of a Gram
	// method beyond its triplets, per column of the eigensolver's block
	// (b = d + gram.DefaultOversample(d)): the projection to rank d works
	// on n×b blocks, which dominates when the triplets are few for the
	// items (Birch's 10,000 points at λ = 0.05: 39 ms an epoch of CKL where
	// its triplets' part is 0.5 ms). Fitted, with the projections counted
	// per batch (gramBatches), on the 1,385 CKL, GNMDS and FORTE fits of a
	// second or more in the campaign database of 2026-11-29, given each
	// one's epochs: the median misestimate goes from 1.61, 1.54 and 2.17
	// (one projection an epoch, 30 per squared column) to 1.28, 1.29 and
	// 1.44, the 90th percentile from 4.3, 3.8 and 7.1 to 2.2, 2.2 and 3.4
	// (500 to 1,000 fit about as well; b² instead of b, worse). The
	// paper-profile CKL runs at USPS size, d = 50, λ = 2 (10 batches an
	// epoch), took 36 min where one projection an epoch put them at 20.
	gramBlockWork = 700
	// minMachineRuns is the fewest one-thread runs of this machine's kind
	// whose times scale the estimates (see Model).
	minMachineRuns = 10
	// minClassRuns is the fewest runs of a method in a memory class whose
	// rate is the class's own (see memoryClass).
	minClassRuns = 2
)

// Model estimates how long a run takes on this machine: the time to set it
// up (draw its triplets), fit it and evaluate it, each a rate (seconds per
// unit of work) times the work the run's size implies.
//
// The fit's work is epochs × the work of one epoch, by the method's family
// (lib/embed) and, among the landmark methods, by method, with n items,
// d dimensions and T = ⌈λ·n·d·log₂n⌉ triplets (or oracle queries):
//
//	soe, ste, tste, cklx   T·(d + 50)                (one pass over the triplets; see tripletCoordinates)
//	gnmds, ckl             β·(min(2T, n²)·d + 700·n·b)
//	forte                  min(2T, n²)·d + 700·n·b   (the step's sparsity pattern times the n×d block, and the
//	                       projection's n×b blocks, b = d + gram.DefaultOversample(d), see gramBlockWork;
//	                       GNMDS and CKL step and project once for each of their β = ⌈T/10⁶⌉ batches)
//	oenn                   ⌈T/B⌉·min(3B, n)·w(α+2w+d) + 12·T·(d + 50)
//	                       (B the batch; the run's width w, default oenn.Width(n, d), and input length α, default ⌈log₂n⌉;
//	                       see oennTripletWork)
//	loe                    T                         (BTL ascent over all landmarks' queries)
//	lloe                   T(m)·(d + 50), plus n·a·100·d once (SOE on m = min(n/2, 1000) items; n insertions, a = 2(d+1) anchors)
//
// Epochs are the run's MaxEpochs or the method's default cap; the paper's
// stopping rule ends all but the landmark methods (which run their
// iterations) earlier, after the epochs the method's converged runs in the
// database took if fewer: the median of those on the run's dataset at its
// d where at least three converged, else of those on its dataset, else of
// all (150 without any). Epochs to converge vary by dataset and d (OENN's
// from 200 on CHAR at d = 30 to 450 on uniform at d = 2): on the campaign
// database of 2026-11-27, leaving each converged run out, the median
// misprediction of its epochs falls from a factor 1.4 to 1.29 for OENN,
// 1.67 to 1.44 for CKL-x and 1.5 to 1.33 for CKL and t-STE, and its 90th
// percentile from 2.33 to 2.0 for OENN, CKL and t-STE (CKL-x's rises from
// 2.6 to 3.0; SOE's, STE's and FORTE's stay within 1.0 and 1.5–2.0).
// Setup is loading the dataset, a time of its own (see Calibrate), and
// T·(D + 50) for the T triplets drawn and answered by two distances between
// points of dimension D, as a pass costs above (FMNIST's 784 dimensions make
// its triplets 14 times as dear as those of 2D points: at 60,000 items,
// d = 50, λ = 2, 4 to 9 minutes); evaluation is the kNN errors on the
// embedding and on the data (n²·(d+D) for a labelled dataset of dimension D)
// and the Procrustes disparity (n·D·d).
//
// Calibrate measures the rates on the ok runs a database holds. A fit rate
// is the recorded fit seconds of the method's runs on that backend, summed,
// over the work their recorded epochs and sizes imply, summed: that weighs
// runs by their size, so the fixed costs of many small runs count little,
// and the estimates improve as larger runs are recorded. The fit rates of
// SOE, STE, t-STE, CKL-x and LLOE are measured by memory class too (the
// size of the n×d embedding, see memoryClass), and a run is estimated at the
// rate of its class, or of the largest class below it that holds runs of
// its method, where one does: once the embedding outgrows the caches, a
// pass reads rows from memory, at a cost that depends on the method. On the
// campaign database of 2026-12-03 CKL-x's rate is 7.1e-10 below 1 MiB and
// 5.0e-9 at 16–32 MiB (60,000 items, d = 50), t-STE's 1.05e-9 and 4.9e-9,
// SOE's 4.3e-10 and 5.0e-10; the median misestimate of the fits of a minute
// or more (given their epochs, each run left out of its rate) falls from
// 1.32 to 1.02 for t-STE and from 1.73 to 1.07 for CKL-x. The evaluation
// rate is a ratio likewise, over all runs, and so is the setup rate, over
// the setups of the runs that draw triplets less their load times; a load
// time is the median of what the setups of a dataset at a data dimension
// took beyond their triplets (see fitSetup and loadGroup): FMNIST's 7–12 s
// where PCA reduces it, none measurable elsewhere. A method without
// recorded runs keeps the development machine's rate; a cuda run without
// recorded cuda runs of its method is estimated as on the CPU.
//
// Fit rates are kept per method and optimiser (L-BFGS evaluates the
// objective more than once an iteration); runs on datasets of people's
// comparisons are not measured (λ does not count their triplets).
//
// The rates are those of all the machines whose runs the database holds.
// Where it holds at least ten one-thread runs of machines of this one's
// kind (the same CPU model and count of cores), every estimate is scaled by
// how much longer or shorter those took than the rates say: their fit
// seconds, summed, over their estimated fit seconds, summed (Speed). The
// campaign's database of 2026-11-28 holds 36 runs of a 2-core Intel VM that
// took 1.75 times their estimates, and 121 one-thread runs of the GPU
// machine's 16-core Intel that took 1.25 times theirs; its 8,488 runs of
// the 2-core AMD VM, 0.98 times.
//
// Estimates are times of one-thread runs on this machine, as the database's
// ran them (scaled by Speed where it holds enough of this machine's). They order and balance runs well; in absolute terms they are
// within a small factor: on the campaign database of 2026-11-23, given each
// run's epochs, the median misestimate of the fits of a second or more is
// a factor 1.5–2.4 by method (it was up to 12 for t-STE before the per-triplet
// cost); the default model puts the full-size CHAR runs of bench/char.md
// (two threads each) at 1.0 to 3.6 times twice their measured fit times.
type Model struct {
	// rates[rateKey] are seconds per unit of fit work.
	rates map[rateKey]float64
	// classRates are those of the memory classes holding at least
	// minClassRuns runs.
	classRates map[classRate]float64
	// typicalEpochs are the median epochs of converged runs, by method,
	// method and dataset, and method, dataset and d (see epochGroups).
	typicalEpochs map[epochGroup]int
	setupRate     float64
	// loadSeconds are the load times of the runs' groups (see loadGroup).
	loadSeconds map[loadGroup]float64
	evalRate    float64
	// Calibrated counts the runs the rates were measured on.
	Calibrated int
	// Speed scales every estimate to this machine (see Model): 1 where
	// the database holds too few runs of its kind.
	Speed float64
	// MachineRuns counts the runs of this machine's kind Speed was
	// measured on (0 where it is 1 for want of them).
	MachineRuns int
}

// rateKey names a rate: a method, its optimiser ("" the default) and a
// backend. L-BFGS evaluates the objective more than once an iteration, so
// its epochs cost more than Adam's.
type rateKey struct{ method, optimizer, backend string }

// classRate names the rate of a rateKey's runs in one memory class.
type classRate struct {
	rateKey
	class int
}

// memoryClass is the class of an n×d embedding of float64s by its size:
// 0 below 1 MiB, then k for 2^(k−1) to 2^k MiB (60,000 items at d = 50,
// 23 MiB: class 5). The caches of the machines the campaign runs on hold
// 1 to 2 MiB a core and a few tens of MiB shared.
func memoryClass(n, d int) int {
	mib := float64(n) * float64(d) * 8 / (1 << 20)
	if mib < 1 {
		return 0
	}
	return int(math.Log2(mib)) + 1
}

// Default returns the model with the development machine's rates.
func Default() *Model {
	return &Model{rates: map[rateKey]float64{}, classRates: map[classRate]float64{}, typicalEpochs: map[epochGroup]int{},
		setupRate: defaultSetupRate, loadSeconds: map[loadGroup]float64{}, evalRate: defaultEvalRate, Speed: 1}
}

// epochGroup names converged runs whose median epochs predict a run's:
// those of a method on a dataset at a dimension, or (dim 0) on a dataset at
// any, or (no dataset) all of the method's.
type epochGroup struct {
	method, dataset string
	dim             int
}

// minEpochRuns is the least converged runs of a dataset, or of a dataset at
// a dimension, whose median predicts epochs: one configuration's three
// repetitions.
const minEpochRuns = 3

// epochGroups returns the groups of the run c, the narrowest first.
func epochGroups(c job.Config) [3]epochGroup {
	return [3]epochGroup{{c.Algorithm, c.Dataset, c.Dim}, {c.Algorithm, c.Dataset, 0}, {method: c.Algorithm}}
}

// Calibrate returns the model with the rates measured on the ok runs st
// holds (see Model); methods without runs keep the default rates. Its
// estimates are for this machine (hostinfo.Current).
func Calibrate(ctx context.Context, st *store.Store) (*Model, error) {
	return calibrate(ctx, st, hostinfo.Current())
}

// machineKind is what makes runs of two machines comparable in time: their
// CPU model and cores.
type machineKind struct {
	cpu   string
	cores int
}

// calibrate is Calibrate with its estimates for machines like host.
func calibrate(ctx context.Context, st *store.Store, host hostinfo.Host) (*Model, error) {
	rows, err := st.DB().QueryContext(ctx, `SELECT r.config, r.backend, r.stop_reason, r.threads,
		coalesce(h.cpu, ''), coalesce(h.cores, 0),
		max(CASE WHEN m.name = 'fit_seconds' THEN m.value END),
		max(CASE WHEN m.name = 'setup_seconds' THEN m.value END),
		max(CASE WHEN m.name = 'eval_seconds' THEN m.value END),
		max(CASE WHEN m.name = 'epochs' THEN m.value END),
		max(CASE WHEN m.name = 'items' THEN m.value END),
		max(CASE WHEN m.name = 'data_dim' THEN m.value END)
		FROM runs r JOIN metrics m ON m.run_id = r.id LEFT JOIN hosts h ON h.id = r.host_id
		WHERE r.status = 'ok' GROUP BY r.id ORDER BY r.key`)
	if err != nil {
		return nil, fmt.Errorf("plan: calibrating on %s: %w", st.Path(), err)
	}
	defer rows.Close()
	fit := map[rateKey]*ratio{}
	fitByClass := map[classRate]*ratio{}
	epochs := map[epochGroup][]float64{}
	var setups []setupRun
	var eval ratio
	// here are the one-thread fits of machines like host: their rate,
	// seconds and work.
	type fitRun struct {
		rate          classRate
		seconds, work float64
	}
	var here []fitRun
	kind := machineKind{host.CPU, host.Cores}
	m := Default()
	for rows.Next() {
		var cfg, backend, stop, cpu string
		var threads, cores int
		var fitS, setupS, evalS, ep, items, dataDim sql.NullFloat64
		if err := rows.Scan(&cfg, &backend, &stop, &threads, &cpu, &cores, &fitS, &setupS, &evalS, &ep, &items, &dataDim); err != nil {
			return nil, fmt.Errorf("plan: calibrating on %s: %w", st.Path(), err)
		}
		var c job.Config
		// Runs of exp's Extension wrap their config; they are not
		// measured (their algorithm is empty here).
		if json.Unmarshal([]byte(cfg), &c) != nil || !ep.Valid || !items.Valid || !dataDim.Valid {
			continue
		}
		if _, ok := methods[c.Algorithm]; !ok || comparisons(c.Dataset) {
			continue
		}
		sz := size{n: int(items.Float64), d: c.Dim, dataDim: int(dataDim.Float64), lambda: c.Lambda, labeled: labeled(c.Dataset)}
		sz.triplets = triplets.Count(sz.lambda, sz.n, sz.d)
		if w := sz.fitWork(c, int(ep.Float64)); fitS.Valid && w > 0 {
			k := rateKey{c.Algorithm, c.Optimizer, backend}
			kc := classRate{k, sz.memoryClass(c)}
			addRatio(fit, k, fitS.Float64, w)
			if kc.class >= 0 {
				addRatio(fitByClass, kc, fitS.Float64, w)
			}
			m.Calibrated++
			if threads == 1 && (machineKind{cpu, cores}) == kind {
				here = append(here, fitRun{kc, fitS.Float64, w})
			}
		}
		if stop == "converged" {
			for _, g := range epochGroups(c) {
				epochs[g] = append(epochs[g], ep.Float64)
			}
		}
		if setupS.Valid && sz.triplets > 0 && !active(c.Algorithm) {
			setups = append(setups, setupRun{loadGroup{c.Dataset, sz.dataDim}, setupS.Float64, sz.setupWork()})
		}
		if evalS.Valid {
			eval.add(evalS.Float64, sz.evalWork())
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("plan: calibrating on %s: %w", st.Path(), err)
	}
	for k, r := range fit {
		m.rates[k] = r.rate()
	}
	for k, r := range fitByClass {
		if r.runs >= minClassRuns {
			m.classRates[k] = r.rate()
		}
	}
	if len(here) >= minMachineRuns {
		var speed ratio
		for _, r := range here {
			speed.add(r.seconds, m.keyRate(r.rate.rateKey, r.rate.class)*r.work)
		}
		m.Speed, m.MachineRuns = speed.rate(), len(here)
	}
	for g, v := range epochs {
		if len(v) >= minEpochRuns || g.dataset == "" {
			m.typicalEpochs[g] = int(median(v))
		}
	}
	if len(setups) > 0 {
		m.setupRate, m.loadSeconds = fitSetup(setups)
	}
	if eval.work > 0 {
		m.evalRate = eval.rate()
	}
	return m, nil
}

// setupRun is a run's recorded setup: its seconds and its setup work.
type setupRun struct {
	group         loadGroup
	seconds, work float64
}

// loadGroup names runs whose setups load the same: a dataset at a data
// dimension (FMNIST's PCA to a few dimensions adds seconds to its load),
// or (dim 0) at any, or (no dataset) all runs.
type loadGroup struct {
	dataset string
	dataDim int
}

// loadGroups returns the groups of a run, the narrowest first.
func loadGroups(dataset string, dataDim int) [3]loadGroup {
	return [3]loadGroup{{dataset, dataDim}, {dataset, 0}, {}}
}

// fitSetup measures the setup rate and the groups' load times on the runs,
// each given the other: a load is the median of what its runs' setups took
// beyond their setup work at the rate, the rate that of the setups' seconds
// beyond their loads over their work. Starting from the rate of their whole
// seconds, which the loads inflate, it alternates until the rate settles
// (each round shrinks the loads' share of it by the share of the work in
// groups that take them).
func fitSetup(runs []setupRun) (float64, map[loadGroup]float64) {
	var whole ratio
	for _, r := range runs {
		whole.add(r.seconds, r.work)
	}
	rate := whole.rate()
	loads := setupLoads(runs, rate)
	for range 100 {
		var beyond ratio
		for _, r := range runs {
			beyond.add(max(0, r.seconds-loads[r.group]), r.work)
		}
		next := beyond.rate()
		settled := math.Abs(next-rate) <= 1e-6*rate
		rate, loads = next, setupLoads(runs, next)
		if settled {
			break
		}
	}
	return rate, loads
}

// setupLoads returns the load time of each group of the runs: the median of
// what their setups took beyond their setup work at the rate.
func setupLoads(runs []setupRun, rate float64) map[loadGroup]float64 {
	beyond := map[loadGroup][]float64{}
	for _, r := range runs {
		b := max(0, r.seconds-rate*r.work)
		for _, g := range loadGroups(r.group.dataset, r.group.dataDim) {
			beyond[g] = append(beyond[g], b)
		}
	}
	loads := make(map[loadGroup]float64, len(beyond))
	for g, v := range beyond {
		loads[g] = median(v)
	}
	return loads
}

// ratio sums recorded seconds and the work they did, and counts the runs.
// Its rate, total seconds over total work, weighs runs by their size: the fixed
// costs of the many small runs count little, and the large runs, whose rate
// the estimates of larger ones extend, count most.
type ratio struct {
	seconds, work float64
	runs          int
}

func (r *ratio) add(seconds, work float64) {
	r.seconds += seconds
	r.work += work
	r.runs++
}

func (r *ratio) rate() float64 { return r.seconds / r.work }

// addRatio adds a run's seconds and work to the ratio of key k in rs.
func addRatio[K comparable](rs map[K]*ratio, k K, seconds, work float64) {
	if rs[k] == nil {
		rs[k] = &ratio{}
	}
	rs[k].add(seconds, work)
}

// Estimate returns the expected duration of the run c.
func (m *Model) Estimate(c job.Config) time.Duration {
	meth, ok := methods[c.Algorithm]
	if !ok {
		// A method the model does not know costs like SOE.
		meth = methods["soe"]
	}
	sz := sizeOf(c)
	fit := m.rate(c.Algorithm, c.Optimizer, c.Backend, sz.memoryClass(c), meth) * sz.fitWork(c, m.epochs(c, meth))
	secs := fit + m.evalRate*sz.evalWork()
	if !active(c.Algorithm) {
		secs += m.setupSeconds(c.Dataset, sz)
	}
	return time.Duration(secs * m.Speed * float64(time.Second))
}

// setupSeconds is the time to load the dataset and draw the triplets of a
// run of that size: the load time of its narrowest group holding runs (0
// without any).
func (m *Model) setupSeconds(dataset string, sz size) float64 {
	var load float64
	for _, g := range loadGroups(dataset, sz.dataDim) {
		if l, ok := m.loadSeconds[g]; ok {
			load = l
			break
		}
	}
	return load + m.setupRate*sz.setupWork()
}

// rate is the fit rate of the method with that optimiser on that backend,
// for an embedding of the memory class: as measured, else as measured on
// the CPU, else the default optimiser's, else the development machine's.
func (m *Model) rate(alg, optimizer, backend string, class int, meth method) float64 {
	for _, k := range []rateKey{{alg, optimizer, backend}, {alg, optimizer, job.CPU}, {alg, "", backend}, {alg, "", job.CPU}} {
		if _, ok := m.rates[k]; ok {
			return m.keyRate(k, class)
		}
	}
	return meth.rate
}

// keyRate is the measured rate k at the memory class: that of the class or
// of the largest class below it that holds enough runs, else (and for
// class −1) k's overall.
func (m *Model) keyRate(k rateKey, class int) float64 {
	for c := class; c >= 0; c-- {
		if r, ok := m.classRates[classRate{k, c}]; ok {
			return r
		}
	}
	return m.rates[k]
}

// epochs returns the epochs the run c is expected to take.
func (m *Model) epochs(c job.Config, meth method) int {
	limit := meth.maxEpochs
	if c.MaxEpochs > 0 {
		limit = c.MaxEpochs
	}
	if family(c.Algorithm) == embed.FamilyLandmark || c.NoStop {
		return limit // fixed iterations, or no stopping rule to end them
	}
	for _, g := range epochGroups(c) {
		if typical, ok := m.typicalEpochs[g]; ok {
			return min(limit, typical)
		}
	}
	return min(limit, defaultEpochs)
}

// family returns the method's family (lib/embed); an unknown method counts
// as one that optimises the embedding.
func family(alg string) embed.Family {
	info, err := embed.Lookup(alg)
	if err != nil {
		return embed.FamilyEmbedding
	}
	return info.Family
}

// active reports whether the method asks an oracle instead of drawing
// triplets first.
func active(alg string) bool {
	info, err := embed.Lookup(alg)
	return err == nil && info.Active
}

// size is what a run's cost depends on.
type size struct {
	n, d, dataDim int
	lambda        float64
	triplets      int
	labeled       bool
}

// sizeOf resolves the run's items and data dimension as runner/evaluate
// loads them (lib/datasets: 0 items means the paper's size, bounded by the
// points the files hold).
func sizeOf(c job.Config) size {
	sz := size{n: c.N, d: c.Dim, dataDim: c.DataDim, lambda: c.Lambda}
	if spec, err := datasets.Lookup(c.Dataset); err == nil {
		if sz.n == 0 {
			sz.n = spec.N
		}
		if spec.Available > 0 {
			sz.n = min(sz.n, spec.Available)
		}
		if sz.dataDim == 0 || !spec.Synthetic {
			sz.dataDim = spec.Dim
		}
		sz.labeled = spec.Labeled()
	}
	if c.PCA > 0 {
		sz.dataDim = min(sz.dataDim, c.PCA)
	}
	sz.triplets = triplets.Count(sz.lambda, sz.n, sz.d)
	return sz
}

// Items returns the number of items the run c embeds.
func Items(c job.Config) int { return sizeOf(c).n }

// comparisons reports whether the dataset is one of people's comparisons,
// whose triplets are its files', not λ·n·d·log₂n: the model does not size
// its runs, so they are not measured.
func comparisons(dataset string) bool {
	spec, err := datasets.Lookup(dataset)
	return err == nil && spec.Kind == datasets.KindComparisons
}

func labeled(dataset string) bool {
	spec, err := datasets.Lookup(dataset)
	return err == nil && spec.Labeled()
}

// fitWork is the work of fitting the run c for the given epochs (see
// Model), by its method's family.
func (sz size) fitWork(c job.Config, epochs int) float64 {
	n, d, t, e := float64(sz.n), float64(sz.d), float64(sz.triplets), float64(epochs)
	switch family(c.Algorithm) {
	case embed.FamilyGram:
		b := d + float64(gram.DefaultOversample(sz.d))
		return e * sz.gramBatches(c) * (math.Min(2*t, n*n)*d + gramBlockWork*n*b)
	case embed.FamilyNeural:
		batch := float64(oenn.DefaultBatchSize)
		if c.BatchSize > 0 {
			batch = float64(c.BatchSize)
		}
		batch = math.Min(batch, t)
		// An item's pass through EmbNet: α inputs → w → w → w → d.
		net := oenn.OENN{Width: int(c.Params["width"]), InputLen: int(c.Params["inputlen"])}
		width, inputLen := net.Shape(sz.n, sz.d)
		w, alpha := float64(width), float64(inputLen)
		return e * (math.Ceil(t/batch)*math.Min(3*batch, n)*w*(alpha+2*w+d) + oennTripletWork*t*(d+tripletCoordinates))
	case embed.FamilyLandmark:
		if c.Algorithm != "lloe" {
			return e * t // loe
		}
		m := min(sz.n/2, landmark.DefaultLLOEMaxSubset)
		anchors := 2 * (d + 1)
		return e*float64(triplets.Count(sz.lambda, m, sz.d))*(d+tripletCoordinates) + n*anchors*landmark.DefaultLLOEPhase2Iterations*d
	}
	return e * t * (d + tripletCoordinates)
}

// gramBatches is how many times an epoch of the Gram method of run c steps
// and projects: once for FORTE (full-batch) and for the authors' variant of
// GNMDS and CKL (one step in all, see gram.CKL's OneStep), else once per
// batch of at most the run's batch size (default gram.DefaultBatchSize)
// triplets. Each projection reads the whole pattern and n×b blocks, so an
// epoch of T triplets costs ⌈T/batch⌉ times one of a batch: at USPS size,
// d = 50, CKL's epoch takes 1.5 s at λ = 0.01 (one batch) and 22 s at
// λ = 2 (ten).
func (sz size) gramBatches(c job.Config) float64 {
	if !methods[c.Algorithm].batched || c.Params["variant"] != 0 || sz.triplets == 0 {
		return 1
	}
	batch := gram.DefaultBatchSize
	if c.BatchSize > 0 {
		batch = c.BatchSize
	}
	return math.Ceil(float64(sz.triplets) / float64(min(batch, sz.triplets)))
}

// memoryClass is the memory class of the run's embedding where its method
// passes over the triplets reading the embedding's rows (embed's
// FamilyEmbedding, and LLOE, which runs SOE and then inserts the items into
// the n×d embedding), else −1. The other methods' memory is not the n×d
// embedding's (the Gram methods' pattern and blocks, OENN's network, LOE's
// landmarks), and their larger runs do not slow down so: on the campaign
// database of 2026-12-03 their rates at 2–4 MiB are 0.7 (OENN, GNMDS) to
// 1.5 (FORTE) times those below 1 MiB, where LLOE's at 8–16 MiB are 12 times.
func (sz size) memoryClass(c job.Config) int {
	if family(c.Algorithm) != embed.FamilyEmbedding && c.Algorithm != "lloe" {
		return -1
	}
	return memoryClass(sz.n, sz.d)
}

// setupWork is the work of drawing the run's triplets and answering them
// from the points (see Model).
func (sz size) setupWork() float64 {
	return float64(sz.triplets) * float64(sz.dataDim+tripletCoordinates)
}

// evalWork is the work of evaluating the embedding (see Model).
func (sz size) evalWork() float64 {
	n, d, dd := float64(sz.n), float64(sz.d), float64(sz.dataDim)
	w := n * dd * d
	if sz.labeled {
		w += n * n * (d + dd)
	}
	return w
}

// median returns the median of xs, which it sorts.
func median(xs []float64) float64 {
	sort.Float64s(xs)
	k := len(xs) / 2
	if len(xs)%2 == 1 {
		return xs[k]
	}
	return (xs[k-1] + xs[k]) / 2
}
