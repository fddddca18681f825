package exp

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/oe-lab/oe/lib/plot"
	"github.com/oe-lab/oe/runner/report"
)

// LinePlot draws a metric against a swept parameter, one line per value of
// a field, each point the mean over repetitions with a ±1 sd error bar.
type LinePlot struct {
	Title   string
	Results Results
	// X is the swept numeric field ("lambda", "noise_level", "dim", "n").
	X string
	// Y is the metric.
	Y string
	// Lines is the field with one line per value (usually "algorithm").
	Lines      string
	LogX, LogY bool
	// XLabel defaults to X, YLabel to Y's Label.
	XLabel, YLabel string
	// Caption defaults to the title.
	Caption string
}

// BarPlot draws a grouped bar chart: one group per value of Groups, one bar
// per value of Bars, each the mean over repetitions with a ±1 sd error bar.
type BarPlot struct {
	Title   string
	Results Results
	// Groups is the field along the x axis (e.g. "dataset").
	Groups string
	// Bars is the field with one bar per value in each group (e.g.
	// "algorithm").
	Bars string
	// Y is the metric.
	Y    string
	LogY bool
	// YLabel defaults to Y's Label.
	YLabel  string
	Caption string
}

// CurvePlot draws the train triplet error that each run's trace measured
// against the epoch (the paper's convergence figures): one line per value
// of Lines, each point the mean over the repetitions measured at that epoch
// with a ±1 sd error bar. Runs declared with NoStop measure it after every
// epoch, others at the stopping rule's checks (every 50 epochs).
type CurvePlot struct {
	Title   string
	Results Results
	// Lines is the field with one line per value (usually "algorithm").
	Lines   string
	LogX    bool
	Caption string
}

// HeatMap draws the mean of a metric over a grid of two fields.
type HeatMap struct {
	Title   string
	Results Results
	// X and Y are the fields along the axes, Z the metric.
	X, Y, Z string
	// Format prints each cell's value (default "%.2f").
	Format  string
	Caption string
}

// Lines adds a line plot to the report.
func (e *Experiment) Lines(p LinePlot) {
	if e.notYet(p.Title, p.Results) {
		return
	}
	var series []plot.Series
	for _, name := range p.Results.Distinct(p.Lines) {
		sub := p.Results.Where(p.Lines, name)
		xs := sub.Distinct(p.X)
		s := plot.Series{Name: name}
		vals := make([]float64, len(xs))
		for i, x := range xs {
			vals[i] = sub.Where(p.X, x)[0].Number(p.X)
		}
		sort.Sort(byValue{xs, vals})
		for i, x := range xs {
			s.X = append(s.X, vals[i])
			s.Samples = append(s.Samples, sub.Where(p.X, x).Values(p.Y))
		}
		series = append(series, s)
	}
	pl, err := plot.Lines(plot.Axes{Title: p.Title, X: or(p.XLabel, p.X), Y: or(p.YLabel, Label(p.Y)), LogX: p.LogX, LogY: p.LogY}, series)
	e.figure(p.Title, p.Caption, report.Figure{Plot: pl}, err)
}

// Curves adds the train error curves of p.Results' traces to the report.
func (e *Experiment) Curves(p CurvePlot) {
	if e.notYet(p.Title, p.Results) {
		return
	}
	var series []plot.Series
	for _, name := range p.Results.Distinct(p.Lines) {
		xs, samples := p.Results.Where(p.Lines, name).trainErrorCurve()
		if len(xs) > 0 {
			series = append(series, plot.Series{Name: name, X: xs, Samples: samples})
		}
	}
	pl, err := plot.Lines(plot.Axes{Title: p.Title, X: "epoch", Y: Label(TrainError), LogX: p.LogX}, series)
	e.figure(p.Title, p.Caption, report.Figure{Plot: pl}, err)
}

// trainErrorCurve returns the epochs at which the OK results' traces
// measured the train error, ascending, and at each the values measured.
func (rs Results) trainErrorCurve() (epochs []float64, samples [][]float64) {
	at := map[int][]float64{}
	for _, r := range rs {
		if r.Status != OK {
			continue
		}
		for _, ep := range r.Trace {
			if !math.IsNaN(ep.TrainError) {
				at[ep.Epoch] = append(at[ep.Epoch], ep.TrainError)
			}
		}
	}
	keys := make([]int, 0, len(at))
	for k := range at {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		epochs, samples = append(epochs, float64(k)), append(samples, at[k])
	}
	return epochs, samples
}

type byValue struct {
	names []string
	vals  []float64
}

func (b byValue) Len() int           { return len(b.vals) }
func (b byValue) Less(i, j int) bool { return b.vals[i] < b.vals[j] }
func (b byValue) Swap(i, j int) {
	b.vals[i], b.vals[j] = b.vals[j], b.vals[i]
	b.names[i], b.names[j] = b.names[j], b.names[i]
}

// Bars adds a grouped bar chart to the report.
func (e *Experiment) Bars(p BarPlot) {
	if e.notYet(p.Title, p.Results) {
		return
	}
	groups := p.Results.Distinct(p.Groups)
	var series []plot.Series
	for _, name := range p.Results.Distinct(p.Bars) {
		sub := p.Results.Where(p.Bars, name)
		s := plot.Series{Name: name}
		for _, g := range groups {
			s.Samples = append(s.Samples, sub.Where(p.Groups, g).Values(p.Y))
		}
		series = append(series, s)
	}
	pl, err := plot.Bars(plot.Axes{Title: p.Title, Y: or(p.YLabel, Label(p.Y)), LogY: p.LogY}, groups, series)
	e.figure(p.Title, p.Caption, report.Figure{Plot: pl}, err)
}

// HeatMap adds a heat map to the report.
func (e *Experiment) HeatMap(p HeatMap) {
	if e.notYet(p.Title, p.Results) {
		return
	}
	xs, ys := p.Results.Distinct(p.X), p.Results.Distinct(p.Y)
	z := make([][]float64, len(ys))
	for r, y := range ys {
		z[r] = make([]float64, len(xs))
		for c, x := range xs {
			z[r][c] = p.Results.Where(p.Y, y).Where(p.X, x).Mean(p.Z)
		}
	}
	pl, err := plot.HeatMap(plot.Axes{Title: p.Title, X: p.X, Y: p.Y}, xs, ys, z, or(p.Format, "%.2f"))
	e.figure(p.Title, p.Caption, report.Figure{Plot: pl}, err)
}

// Scatter adds a scatter plot of the view of a run's embedding (see view:
// t-SNE coordinates when it has more than two dimensions), coloured by
// label. A run whose embedding or view was not stored (not declared with
// KeepEmbedding, too large, or not OK) gets a note instead.
func (e *Experiment) Scatter(title string, r Result) {
	if e.s.DeclareOnly {
		return
	}
	if r.embedding == nil {
		e.Note(fmt.Sprintf("No scatter plot %q: the embedding of that run (%s, %s) is not in the results database (run not OK, not declared with KeepEmbedding, or larger than --max-embedding).",
			title, r.Field("dataset"), r.Run.Algorithm))
		return
	}
	pts, labels, err := e.drawn(r)
	if err != nil {
		e.Note(fmt.Sprintf("No scatter plot %q: t-SNE failed: %v.", title, err))
		return
	}
	caption := fmt.Sprintf("%s embedding of %s (n = %s, d = %d)", r.Run.Algorithm, r.Field("dataset"), r.Field("n"), r.Run.Dim)
	if r.Run.Dim > 2 {
		caption += ", " + viewName(r.Run.Dim)
	}
	if n, _ := pts.Dims(); n < int(r.Metrics[Items]) {
		caption += fmt.Sprintf(", %d of its items spread evenly", n)
	}
	if labels != nil {
		caption += ", coloured by class"
	}
	pl, err := plot.Scatter(plot.Axes{Title: title}, pts, labels)
	if err == nil {
		pl.X.Label.Text, pl.Y.Label.Text = "", ""
	}
	e.figure(title, caption, report.Figure{Plot: pl}, err)
}

// ParamHeatMap adds a heat map like HeatMap, where X or Y may also name an
// algorithm parameter as "param:NAME" (e.g. "param:width" of OENN). Numeric
// axis values are sorted ascending.
func (e *Experiment) ParamHeatMap(p HeatMap) {
	if e.notYet(p.Title, p.Results) {
		return
	}
	xs, ys := axisValues(p.Results, p.X), axisValues(p.Results, p.Y)
	z := make([][]float64, len(ys))
	for r, y := range ys {
		z[r] = make([]float64, len(xs))
		for c, x := range xs {
			cell := p.Results.Filter(func(res Result) bool { return axisValue(res, p.X) == x && axisValue(res, p.Y) == y })
			z[r][c] = cell.Mean(p.Z)
		}
	}
	pl, err := plot.HeatMap(plot.Axes{Title: p.Title, X: strings.TrimPrefix(p.X, "param:"), Y: strings.TrimPrefix(p.Y, "param:")}, xs, ys, z, or(p.Format, "%.2f"))
	e.figure(p.Title, p.Caption, report.Figure{Plot: pl}, err)
}

// axisValue is a field of r, or the value of its parameter for "param:NAME".
func axisValue(r Result, name string) string {
	if param, ok := strings.CutPrefix(name, "param:"); ok {
		v, ok := r.Run.Params[param]
		if !ok {
			panic(fmt.Sprintf("exp: run of %s has no parameter %q set", r.Run.Algorithm, param))
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return r.Field(name)
}

// axisValues returns the distinct values of an axis, numerically sorted
// when they are all numbers.
func axisValues(rs Results, name string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rs {
		if v := axisValue(r, name); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	nums := make([]float64, len(out))
	for i, v := range out {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return out
		}
		nums[i] = f
	}
	sort.Sort(byValue{out, nums})
	return out
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// notYet reports whether the figure of rs waits for its runs: none is done
// and some are missing (a campaign under way). Such a figure is not drawn;
// one note of the report lists all of them, where each would otherwise add
// a note that it has nothing to draw.
func (e *Experiment) notYet(title string, rs Results) bool {
	missing := 0
	for _, r := range rs {
		switch r.Status {
		case OK:
			return false
		case Missing:
			missing++
		}
	}
	if missing == 0 || e.s.DeclareOnly {
		return missing > 0
	}
	e.waiting = append(e.waiting, title)
	text := fmt.Sprintf("%d figures wait for their runs (none done yet): %s.", len(e.waiting), strings.Join(e.waiting, "; "))
	if len(e.waiting) == 1 {
		text = fmt.Sprintf("Figure %q waits for its runs (none done yet).", title)
	}
	if e.waitingNote == 0 {
		e.doc.Notes = append(e.doc.Notes, text)
		e.waitingNote = len(e.doc.Notes)
	} else {
		e.doc.Notes[e.waitingNote-1] = text
	}
	return true
}

// figure adds the figure f, named after its title, with the caption (the
// title when empty); a figure that could not be drawn (err, e.g. no values
// at all) becomes a note.
func (e *Experiment) figure(title, caption string, f report.Figure, err error) {
	if e.s.DeclareOnly {
		return // no report is written
	}
	if err != nil {
		e.Note(fmt.Sprintf("Figure %q not drawn: %v.", title, err))
		return
	}
	e.figures++
	f.Name = fmt.Sprintf("%02d-%s", e.figures, strings.Trim(nonWord.ReplaceAllString(strings.ToLower(title), "-"), "-"))
	if len(f.Name) > 60 {
		f.Name = strings.TrimRight(f.Name[:60], "-")
	}
	f.Caption = or(caption, title)
	e.doc.Add(report.Section{Figure: &f})
}

func or(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
