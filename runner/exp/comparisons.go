package exp

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/oe-lab/oe/lib/crossval"
	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/plot"
	"github.com/oe-lab/oe/runner/evaluate"
	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/report"
)

// MajorityTestError is the test measure of a dataset of comparisons: the
// fraction of test queries without a tie whose majority answer the
// embedding violates (the material data authors' measure).
const MajorityTestError = job.MajorityTestError

// Votes is how a dataset of comparisons' answered queries become training
// triplets (lib/datasets): EachVote or MajorityVote.
type Votes = datasets.Votes

// Constructions for Comparisons.
const (
	EachVote     = datasets.EachVote     // one triplet per vote, in the voter's orientation
	MajorityVote = datasets.MajorityVote // every vote in the majority's orientation (cblearn's)
)

// Comparisons declares and executes runs on a dataset of comparisons people
// answered (oerun data lists them; e.g. "material"), as runner/evaluate's
// Comparisons computes them: each method is fitted on the dataset's
// training answers, one triplet per vote built as votes says, and scored on
// its test answers (TestError on every test vote, MajorityTestError the
// authors' measure). A run's N, DataDim, PCA, Noise and Lambda do not
// apply. Runs are cached under a key that adds the protocol and votes to
// the run's config.
func (e *Experiment) Comparisons(runs []Run, votes Votes) Results {
	return e.comparisons(runs, []evaluate.Comparisons{{Votes: votes}}, "runs on comparisons")
}

// CrossValidate declares and executes a folds-fold cross-validation of
// every run on the training answers of its dataset of comparisons (one
// triplet per vote, EachVote): one run per fold, which holds out whole
// queries; the fold's held-out error is the run's TestError (and
// MajorityTestError). The folds are drawn from the run's Seed and Rep, the
// same for every method. ChooseDims reads the results.
func (e *Experiment) CrossValidate(runs []Run, folds int) Results {
	if folds < 2 {
		panic(fmt.Sprintf("exp: CrossValidate with %d folds", folds))
	}
	protocols := make([]evaluate.Comparisons, folds)
	for f := range protocols {
		protocols[f] = evaluate.Comparisons{Votes: EachVote, Folds: folds, Fold: f}
	}
	return e.comparisons(runs, protocols, "cross-validation runs")
}

// comparisons declares every run under every protocol and executes them,
// each run with its protocol's evaluation.
func (e *Experiment) comparisons(runs []Run, protocols []evaluate.Comparisons, what string) Results {
	var todo []declared
	var runsToDo []execute.Pending
	for _, r := range runs {
		if !Registered(r.Algorithm) {
			e.Note(fmt.Sprintf("Algorithm %s is not registered in this build; its runs on %s were skipped.", r.Algorithm, r.Dataset))
			continue
		}
		if !isComparisons(r.Dataset) {
			panic(fmt.Sprintf("exp: %s is not a dataset of comparisons (oerun data lists them); declare runs on points with Run", r.Dataset))
		}
		jobs := make([]job.Canonical, len(protocols))
		keys := make([]string, len(protocols))
		for i, p := range protocols {
			c, err := r.config(r.Dataset).Normalize()
			if err != nil {
				panic(fmt.Errorf("exp: run %+v: %w", r, err))
			}
			if jobs[i], err = p.Job(c); err != nil {
				panic(err)
			}
			keys[i] = jobs[i].Key
		}
		// Without the dataset's files a run is declared only where the
		// store holds it under every protocol: known by its keys, it
		// counts as the script's run, as in Run.
		if !e.s.ReportOnly && !e.probe(r.Dataset).ok && !e.allStored(keys) {
			e.s.SkipForData(r.Dataset)
			e.Note(fmt.Sprintf("Dataset %s is not available here (files missing: %s); its %s were skipped.",
				r.Dataset, strings.Join(e.probe(r.Dataset).missing, ", "), what))
			continue
		}
		for i, p := range protocols {
			todo = append(todo, declared{r, r.Dataset, jobs[i]})
			runsToDo = append(runsToDo, execute.Pending{Job: jobs[i], Eval: p.Run, Keep: r.KeepEmbedding, View: e.viewer()})
		}
	}
	if !e.s.ReportOnly {
		sum, err := e.s.Exec.Execute(context.Background(), runsToDo)
		e.count(sum)
		if err != nil {
			panic(fmt.Errorf("exp: executing %s: %w", what, err))
		}
	}
	return e.collect(context.Background(), todo, what)
}

// DimChoice is what cross-validation picks for one method with its
// parameters (lib/crossval): Best is the d of the lowest mean held-out
// error, OneSE the smallest d within one standard error (sd/√folds) of it.
type DimChoice struct {
	Algorithm string
	Params    map[string]float64
	Best      int
	OneSE     int
	// Mean and SE are the held-out error at Best and its standard error.
	Mean, SE float64
}

// ChooseDims reads CrossValidate's results: per method and parameters, in
// the order the runs were declared, the held-out TestError of the folds at
// each d, and the choice lib/crossval makes from them. Methods with a d
// whose runs are not all OK are left out.
func (rs Results) ChooseDims() []DimChoice {
	var out []DimChoice
	for _, a := range rs.Distinct("algorithm") {
		byAlg := rs.Where("algorithm", a)
		for _, ps := range byAlg.Distinct("params") {
			sub := byAlg.Where("params", ps)
			var cells []crossval.Cell
			complete := true
			for _, d := range axisValues(sub, "dim") {
				fold := sub.Where("dim", d)
				errs, secs := make([]float64, len(fold)), make([]float64, len(fold))
				for i, r := range fold {
					errs[i], secs[i] = r.Value(TestError), r.Value(FitSeconds)
					complete = complete && !math.IsNaN(errs[i])
				}
				dim, _ := strconv.Atoi(d)
				cells = append(cells, crossval.NewCell(a, dim, errs, secs))
			}
			if !complete || len(cells) == 0 {
				continue
			}
			ch := crossval.Choose(a, cells)
			c := DimChoice{Algorithm: a, Params: sub[0].Run.Params, Best: ch.Best, OneSE: ch.OneSE}
			for _, cell := range cells {
				if cell.Dim == ch.Best {
					c.Mean, c.SE = cell.Mean, cell.SE()
				}
			}
			out = append(out, c)
		}
	}
	return out
}

// NamedMap adds a map of a 2-D embedding of a dataset of comparisons with
// every item labelled by its name; the run must be declared with
// KeepEmbedding. The names are those of the dataset's files; a run without
// a stored embedding, or names that cannot be read, get a note instead.
func (e *Experiment) NamedMap(title string, r Result) {
	if r.embedding == nil {
		e.Note(fmt.Sprintf("No map %q: the embedding of that run (%s, %s) is not in the results database.", title, r.Field("dataset"), r.Run.Algorithm))
		return
	}
	c, err := datasets.LoadComparisons(r.Used)
	if err != nil {
		e.Note(fmt.Sprintf("No map %q: the names of %s: %v.", title, r.Used, err))
		return
	}
	pts := r.embedding
	caption := fmt.Sprintf("%s embedding of %s in d = %d, every item labelled with its name", r.Run.Algorithm, r.Field("dataset"), r.Run.Dim)
	if _, d := pts.Dims(); d > 2 {
		if pts, err = datasets.ProjectPCA(pts, 2); err != nil {
			e.Note(fmt.Sprintf("No map %q: %v.", title, err))
			return
		}
		caption += " (first two principal components)"
	}
	pl, err := plot.LabelledScatter(plot.Axes{Title: title}, pts, c.Names)
	e.figure(title, caption, report.Figure{Plot: pl, Width: 10, Height: 8}, err)
}

// Peers are published results of other libraries on a dataset of
// comparisons, one per library and method, with the columns library,
// algorithm, majority_train_error, majority_test_error and cpu_time_s
// (experiments/data/material_peers.tsv, a copy of the shared data's
// crowd/material/peers.tsv).
type Peers struct{ tsv *TSV }

// ReadPeers reads a peers table relative to the script's folder.
func (e *Experiment) ReadPeers(rel string) Peers {
	t := e.ReadTSV(rel)
	for _, col := range []string{"library", "algorithm", "majority_test_error", "cpu_time_s"} {
		t.Get(col) // panics, naming the file, when the column is missing
	}
	return Peers{t}
}

// peerMethods names each of our methods as the peers do; CKL-x is set
// against the peers' CKL, and OENN, which no peer implements, against every
// method.
var peerMethods = map[string]string{"soe": "SOE", "ste": "STE", "tste": "tSTE", "ckl": "CKL", "cklx": "CKL", "gnmds": "GNMDS", "forte": "FORTE"}

// gramTargets are the methods whose targets on this data belong to the Gram
// methods' issue, not to issue #20.
var gramTargets = map[string]bool{"ckl": true, "gnmds": true}

// peer is one row of a Peers table.
type peer struct {
	library, algorithm string
	err, seconds       float64
}

func (p Peers) rows() []peer {
	var out []peer
	for _, r := range p.tsv.Rows {
		get := func(col string) string {
			for i, h := range p.tsv.Header {
				if h == col {
					return r[i]
				}
			}
			return ""
		}
		e, err1 := strconv.ParseFloat(get("majority_test_error"), 64)
		s, err2 := strconv.ParseFloat(get("cpu_time_s"), 64)
		if err1 != nil || err2 != nil {
			panic(fmt.Sprintf("exp: %s: row %v: majority_test_error and cpu_time_s must be numbers", p.tsv.path, r))
		}
		out = append(out, peer{get("library"), get("algorithm"), e, s})
	}
	return out
}

// BesidePeers sets each method's MajorityTestError and fit time (mean ± sd
// over repetitions, a row per method, d and parameters) beside the peers'
// figures, with issue #20's targets at d = 2: a majority test error at most
// the best published figure for the method + 0.01 (CKL-x against the peers'
// CKL, OENN against the best of any method; CKL's and GNMDS's targets are
// the Gram methods' issue), and a fit time at most the fastest CPU time
// among the peers whose error is within 0.01 of ours.
func (rs Results) BesidePeers(p Peers) *Table {
	peers := p.rows()
	out := NewTable("method", "d", "majority test error (ours)", "best published (method)", "target", "error", "fit time (ours)",
		"fastest peer within 0.01", "time")
	for _, a := range rs.Distinct("algorithm") {
		byAlg := rs.Where("algorithm", a)
		for _, ps := range byAlg.Distinct("params") {
			for _, d := range axisValues(byAlg.Where("params", ps), "dim") {
				cell := byAlg.Where("params", ps).Where("dim", d)
				method := a
				if ps != "" {
					method += " (" + ps + ")"
				}
				ours := cell.Mean(MajorityTestError)
				best := peer{err: math.Inf(1)}
				for _, q := range peers {
					if (peerMethods[a] == "" || strings.EqualFold(q.algorithm, peerMethods[a])) && q.err < best.err {
						best = q
					}
				}
				bestText, target, errVerdict := "—", "—", "—"
				if !math.IsInf(best.err, 1) {
					bestText = fmt.Sprintf("%.3f (%s %s)", best.err, best.library, best.algorithm)
					if d == "2" && !gramTargets[a] {
						target = fmt.Sprintf("≤ %.3f", best.err+0.01)
						errVerdict = verdictOf(ours, ours <= best.err+0.01+1e-12)
					}
				}
				if gramTargets[a] {
					target = "Gram methods' issue"
				}
				fast := peer{seconds: math.Inf(1)}
				for _, q := range peers {
					if math.Abs(q.err-ours) <= 0.01+1e-12 && q.seconds < fast.seconds {
						fast = q
					}
				}
				fastText, timeVerdict := "—", "—"
				if !math.IsInf(fast.seconds, 1) {
					fastText = fmt.Sprintf("%s %s: %.3f in %s", fast.library, fast.algorithm, fast.err, Format(FitSeconds, fast.seconds))
					secs := cell.Mean(FitSeconds)
					timeVerdict = verdictOf(secs, secs <= fast.seconds)
				}
				out.Row(method, d, cell.Cell(MajorityTestError), bestText, target, errVerdict, cell.Cell(FitSeconds), fastText, timeVerdict)
			}
		}
	}
	return out
}

// verdictOf prints PASS or FAIL, or "—" when there is no value to judge.
func verdictOf(v float64, pass bool) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case pass:
		return "PASS"
	}
	return "FAIL"
}

// isComparisons reports whether name is a registered dataset of comparisons.
func isComparisons(name string) bool {
	spec, err := datasets.Lookup(name)
	return err == nil && spec.Kind == datasets.KindComparisons
}

// allStored reports whether the store holds a run of every key.
func (e *Experiment) allStored(keys []string) bool {
	st, err := e.s.Store.Statuses(context.Background(), keys)
	if err != nil {
		panic(fmt.Errorf("exp: %w", err))
	}
	return len(st) == len(keys)
}
