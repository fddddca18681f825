package exp

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/plot"
	"github.com/oe-lab/oe/runner/internal/session"
	"github.com/oe-lab/oe/runner/report"
)

// The rules by which a script checks the paper's findings against its
// results (experiments/reproduction.go): aggregates of a metric over
// methods and swept values, and the verdict over groups of runs. Every
// aggregate is over the mean of a metric across a cell's OK results
// (Results.Mean), so failed and missing runs count as no value.

// Verdict is the outcome of checking a finding against the runs.
type Verdict string

// Verdicts.
const (
	Pass       Verdict = "PASS"
	Fail       Verdict = "FAIL"
	NotChecked Verdict = "NOT CHECKED" // no runs to check it on
)

// VerdictOf returns Pass when the finding holds, else Fail.
func VerdictOf(holds bool) Verdict {
	if holds {
		return Pass
	}
	return Fail
}

// EveryGroup checks a rule on each group of the results, grouped by the key
// group returns, in order of first appearance. A group is judged only once
// every run declared in it exists: with runs still missing from the cache
// it is not applicable ("– key: 3 of 40 runs missing"), since a finding
// read off part of a comparison can come out either way. A group whose
// runs all failed is not applicable either. Otherwise rule gets the group's
// OK results (failed runs count as no value) and returns whether the finding
// holds on them and the numbers it rests on; numbers that contain "NaN" (a
// method the rule compares has no value there) make the group not
// applicable too. Scope a rule that compares some methods only to them
// first (OfAlgorithms), so that the missing runs of others do not hold it
// back. Each group with missing runs is awaited (Await), under the check
// being made (Check). The count of missing runs comes with their estimated
// cost where the execution has a cost model (oerun run and plan). The
// finding passes when the rule holds on every judged group for share 1, or
// on more than share of them for a share below 1 (0.5: "on most"). The returned numbers list each group with ✓, ✗ or – (not
// applicable). Without OK results, or with no group judged, the verdict is
// NotChecked.
func (rs Results) EveryGroup(group func(Result) string, rule func(Results) (bool, string), share float64) (Verdict, string) {
	var keys []string
	groups := map[string]Results{}
	for _, r := range rs {
		k := group(r)
		if _, seen := groups[k]; !seen {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	if len(rs.Filter(func(r Result) bool { return r.Status == OK })) == 0 {
		for _, k := range keys {
			groups[k].Await(k)
		}
		return NotChecked, "no runs to check it on: " + rs.Shortfall()
	}
	held, judged := 0, 0
	var parts []string
	for _, k := range keys {
		g := groups[k]
		if missing := g.Await(k); missing > 0 {
			cost := ""
			if c := g.missingCost(); c > 0 {
				cost = " (estimated " + report.FormatCost(c) + ")"
			}
			parts = append(parts, fmt.Sprintf("– %s: %d of %d runs missing%s", k, missing, len(g), cost))
			continue
		}
		ok := g.Filter(func(r Result) bool { return r.Status == OK })
		if len(ok) == 0 {
			parts = append(parts, fmt.Sprintf("– %s: not applicable (all %d runs failed)", k, len(g)))
			continue
		}
		pass, nums := rule(ok)
		if strings.Contains(nums, "NaN") {
			parts = append(parts, fmt.Sprintf("– %s: not applicable (%s)", k, nums))
			continue
		}
		judged++
		mark := "✗"
		if pass {
			held++
			mark = "✓"
		}
		parts = append(parts, fmt.Sprintf("%s %s: %s", mark, k, nums))
	}
	if judged == 0 {
		return NotChecked, strings.Join(parts, "; ")
	}
	pass := held == judged
	if share < 1 {
		pass = float64(held) > share*float64(judged)
	}
	return VerdictOf(pass), fmt.Sprintf("%d of %d hold — %s", held, judged, strings.Join(parts, "; "))
}

// Check makes one of the script's checks of a finding, check, named label
// (experiments/reproduction.go: the paper's section and the rule): the
// groups of runs it compares that the store lacks runs of (EveryGroup,
// Await) are noted under that name, so that a campaign can execute first the
// runs that let checks be judged (oerun run --order findings). It returns
// what check returns.
func (e *Experiment) Check(label string, check func() (Verdict, string)) (Verdict, string) {
	previous := e.s.SetCheck(label)
	defer e.s.SetCheck(previous)
	return check()
}

// Await notes that the check being made (Check) compares the results rs as
// one group, named group (a dataset), and waits for those of them still
// missing; it returns how many are. EveryGroup awaits each of its groups; a
// rule that groups results itself calls Await for each of its groups, where
// it would count Missing. Outside an experiment (tests) it only counts.
func (rs Results) Await(group string) int {
	var keys []string
	for _, r := range rs {
		if r.Status == Missing {
			keys = append(keys, r.Key)
		}
	}
	if s := session.Current(); s != nil && len(keys) > 0 {
		s.Await(group, keys)
	}
	return len(keys)
}

// missingCost sums the estimated costs of the missing results (0 without a
// cost model).
func (rs Results) missingCost() time.Duration {
	var c time.Duration
	for _, r := range rs {
		if r.Status == Missing {
			c += r.estimate
		}
	}
	return c
}

// OfAlgorithms returns the results of the given algorithms: the scope of a
// rule that compares those only.
func (rs Results) OfAlgorithms(algs ...string) Results {
	return rs.Filter(func(r Result) bool { return slices.Contains(algs, r.Run.Algorithm) })
}

// Shortfall says how many of the declared results have no value: "none
// declared" without results, else e.g. "24 declared: 20 ok, 3 missing, 1
// failed", the count of runs a finding still lacks.
func (rs Results) Shortfall() string {
	if len(rs) == 0 {
		return "none declared at this profile"
	}
	n := map[string]int{}
	for _, r := range rs {
		n[r.Status]++
	}
	return fmt.Sprintf("%d declared: %d ok, %d missing, %d failed", len(rs), n[OK], n[Missing], n[Failed])
}

// Converged returns the OK results whose ConvergeSeconds is the paper's
// running time: fits that the stopping rule ended, or that finished
// (StopReason "converged" or "done": LOE and LLOE have no rule). A fit
// that reached its epoch cap first, or ran with NoStop, stopped short of
// convergence; its ConvergeSeconds, the time to the last improving check
// before the cap (0 before the first check), would make a capped slow
// method look fast, so timing findings leave it out.
func (rs Results) Converged() Results {
	return rs.Filter(func(r Result) bool {
		return r.Status == OK && (r.StopReason == string(embed.StopConverged) || r.StopReason == string(embed.StopDone))
	})
}

// EveryDataset is EveryGroup with a group per dataset (Field "dataset").
func (rs Results) EveryDataset(rule func(Results) (bool, string), share float64) (Verdict, string) {
	return rs.EveryGroup(func(r Result) string { return r.Field("dataset") }, rule, share)
}

// Labeled returns the results, whatever their status, of the runs on
// datasets with class labels (lib/datasets' Spec.Labeled, of the dataset
// used: a stand-in's own labels), on which a kNN error exists. Selecting
// them by dataset, not by a kNN value, keeps their missing runs, so that a
// finding on kNN error is not judged on part of a dataset's runs
// (EveryGroup).
func (rs Results) Labeled() Results {
	return rs.Filter(func(r Result) bool {
		name := r.Used
		if name == "" {
			name = r.Run.Dataset
		}
		spec, err := datasets.Lookup(name)
		return err == nil && spec.Labeled()
	})
}

// Argmin returns the algorithm of algs with the lowest mean metric and that
// mean; the first in algs wins a tie. Without a value: "" and +Inf.
func (rs Results) Argmin(algs []string, metric string) (string, float64) {
	return rs.ArgminBy(algs, func(s Results) float64 { return s.Mean(metric) })
}

// Argmax returns the algorithm of algs with the highest mean metric and
// that mean; the first in algs wins a tie. Without a value: "" and −Inf.
func (rs Results) Argmax(algs []string, metric string) (string, float64) {
	best, v := rs.ArgminBy(algs, func(s Results) float64 { return -s.Mean(metric) })
	return best, -v
}

// ArgminBy is Argmin of any score of an algorithm's results (NaN: no
// value).
func (rs Results) ArgminBy(algs []string, score func(Results) float64) (string, float64) {
	best, v := "", math.Inf(1)
	for _, a := range algs {
		if m := score(rs.Where("algorithm", a)); m < v {
			best, v = a, m
		}
	}
	return best, v
}

// Rank returns the 1-based rank of alg among the algorithms of algs that
// have a mean metric, in ascending order of it (ties keep the order of
// algs); 0 when alg has no value.
func (rs Results) Rank(algs []string, metric, alg string) int {
	type value struct {
		alg string
		v   float64
	}
	var vals []value
	for _, a := range algs {
		if m := rs.Where("algorithm", a).Mean(metric); !math.IsNaN(m) {
			vals = append(vals, value{a, m})
		}
	}
	sort.SliceStable(vals, func(i, j int) bool { return vals[i].v < vals[j].v })
	for i, x := range vals {
		if x.alg == alg {
			return i + 1
		}
	}
	return 0
}

// Measured returns how many of the algorithms have a mean metric.
func (rs Results) Measured(algs []string, metric string) int {
	k := 0
	for _, a := range algs {
		if !math.IsNaN(rs.Where("algorithm", a).Mean(metric)) {
			k++
		}
	}
	return k
}

// AtLargest returns the results whose numeric field (e.g. "max_epochs")
// has its largest value among the results.
func (rs Results) AtLargest(field string) Results {
	_, hi := rs.extent(field)
	return rs.Filter(func(r Result) bool { return r.Number(field) == hi })
}

// AtSmallest returns the results whose numeric field (e.g.
// "noise_level") has its smallest value among the results.
func (rs Results) AtSmallest(field string) Results {
	lo, _ := rs.extent(field)
	return rs.Filter(func(r Result) bool { return r.Number(field) == lo })
}

// extent returns the smallest and largest value of a numeric field (NaN
// without results).
func (rs Results) extent(field string) (lo, hi float64) {
	vals := make([]float64, len(rs))
	for i, r := range rs {
		vals[i] = r.Number(field)
	}
	return extremes(vals)
}

// Endpoints returns the mean metric at the smallest and at the largest
// value of a numeric field; NaN, NaN without results.
func (rs Results) Endpoints(field, metric string) (first, last float64) {
	if len(rs) == 0 {
		return math.NaN(), math.NaN()
	}
	return rs.AtSmallest(field).Mean(metric), rs.AtLargest(field).Mean(metric)
}

// MeanRange returns the lowest and the highest mean metric over the values
// of a field, leaving out values without a mean; NaN, NaN when none has
// one.
func (rs Results) MeanRange(field, metric string) (lo, hi float64) {
	var means []float64
	for _, v := range rs.Distinct(field) {
		means = append(means, rs.Where(field, v).Mean(metric))
	}
	return extremes(means)
}

// extremes returns the smallest and the largest of the values that are not
// NaN; NaN, NaN when none is.
func extremes(vals []float64) (lo, hi float64) {
	lo, hi = math.NaN(), math.NaN()
	for _, v := range vals {
		if !math.IsNaN(v) {
			if !(v >= lo) {
				lo = v
			}
			if !(v <= hi) {
				hi = v
			}
		}
	}
	return lo, hi
}

// MedianCurve returns the values of a numeric field in ascending order and,
// at each, the median over the algorithms of algs of their mean metric (the
// mean of the two middle ones for an even count); values where no
// algorithm has a mean are left out.
func (rs Results) MedianCurve(field, metric string, algs []string) (xs, medians []float64) {
	vals := rs.Distinct(field)
	num := make([]float64, len(vals))
	for i, v := range vals {
		num[i] = rs.Where(field, v)[0].Number(field)
	}
	sort.Sort(byValue{vals, num})
	for i, v := range vals {
		sub := rs.Where(field, v)
		var means []float64
		for _, a := range algs {
			if m := sub.Where("algorithm", a).Mean(metric); !math.IsNaN(m) {
				means = append(means, m)
			}
		}
		if len(means) == 0 {
			continue
		}
		sort.Float64s(means)
		med := means[len(means)/2]
		if len(means)%2 == 0 {
			med = (means[len(means)/2-1] + means[len(means)/2]) / 2
		}
		xs, medians = append(xs, num[i]), append(medians, med)
	}
	return xs, medians
}

// Slope returns the least-squares slope of log(mean metric) against log x
// over the values of the numeric field x at which the mean is positive:
// the growth exponent of, say, the time to converge in n. NaN with fewer
// than two such values.
func (rs Results) Slope(x, metric string) float64 {
	var xs, ys []float64
	for _, v := range rs.Distinct(x) {
		sub := rs.Where(x, v)
		xs, ys = append(xs, sub[0].Number(x)), append(ys, sub.Mean(metric))
	}
	return LogLogSlope(xs, ys)
}

// LogLogSlope returns the least-squares slope of log y against log x over
// the points where both are positive (NaN values are left out): the growth
// exponent of y in x. NaN with fewer than two such points, or when they
// share one x.
func LogLogSlope(xs, ys []float64) float64 {
	var lx, ly []float64
	for i := range xs {
		if xs[i] > 0 && ys[i] > 0 {
			lx, ly = append(lx, math.Log(xs[i])), append(ly, math.Log(ys[i]))
		}
	}
	if len(lx) < 2 {
		return math.NaN()
	}
	xs, ys = lx, ly
	var mx, my float64
	for i := range xs {
		mx, my = mx+xs[i], my+ys[i]
	}
	mx, my = mx/float64(len(xs)), my/float64(len(xs))
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx == 0 {
		return math.NaN()
	}
	return sxy / sxx
}

// TrainErrorAt returns the mean over the OK results of the train error
// that each one's trace measured last at or before epoch (a run that
// stopped earlier counts with its last check); NaN when none had measured
// one by then. Runs declared with NoStop measure it after every epoch.
func (rs Results) TrainErrorAt(epoch int) float64 {
	var vals []float64
	for _, r := range rs {
		if r.Status != OK {
			continue
		}
		v := math.NaN()
		for _, ep := range r.Trace {
			if ep.Epoch > epoch {
				break
			}
			if !math.IsNaN(ep.TrainError) {
				v = ep.TrainError
			}
		}
		if !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	m, _, _ := plot.MeanSD(vals)
	return m
}

// SmallestReaching returns, for each value of the numeric field x in
// ascending order, the smallest value of y (a numeric field, or
// "param:NAME" for an algorithm parameter) at which the mean metric is at
// most bound: e.g. the hidden-layer width OENN needs to reach a 5 % train
// error at each n. Values of x at which no y reaches the bound are left
// out.
func (rs Results) SmallestReaching(x, y, metric string, bound float64) (xs, ys []float64) {
	for _, xv := range axisValues(rs, x) {
		atX := rs.Filter(func(r Result) bool { return axisValue(r, x) == xv })
		for _, yv := range axisValues(atX, y) {
			if atX.Filter(func(r Result) bool { return axisValue(r, y) == yv }).Mean(metric) <= bound {
				xs, ys = append(xs, number(xv)), append(ys, number(yv))
				break
			}
		}
	}
	return xs, ys
}

// number parses a numeric axis value (axisValues sorts such axes); a value
// that is not a number is a mistake in the script.
func number(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(fmt.Sprintf("exp: %q is not a number", s))
	}
	return v
}

// SlopeRange returns the smallest and the largest Slope of the algorithms
// of algs, leaving out those without one; NaN, NaN when none has one.
func (rs Results) SlopeRange(algs []string, x, metric string) (lo, hi float64) {
	slopes := make([]float64, len(algs))
	for i, a := range algs {
		slopes[i] = rs.Where("algorithm", a).Slope(x, metric)
	}
	return extremes(slopes)
}
