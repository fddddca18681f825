package exp

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"
	gplot "gonum.org/v1/plot"

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
	// XLabel and YLabel default to X and Y.
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
	Y       string
	LogY    bool
	YLabel  string
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
	pl, err := plot.Lines(plot.Axes{Title: p.Title, X: or(p.XLabel, p.X), Y: or(p.YLabel, p.Y), LogX: p.LogX, LogY: p.LogY}, series)
	e.figure(p.Title, p.Caption, pl, err)
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
	pl, err := plot.Bars(plot.Axes{Title: p.Title, Y: or(p.YLabel, p.Y), LogY: p.LogY}, groups, series)
	e.figure(p.Title, p.Caption, pl, err)
}

// HeatMap adds a heat map to the report.
func (e *Experiment) HeatMap(p HeatMap) {
	xs, ys := p.Results.Distinct(p.X), p.Results.Distinct(p.Y)
	z := make([][]float64, len(ys))
	for r, y := range ys {
		z[r] = make([]float64, len(xs))
		for c, x := range xs {
			z[r][c] = p.Results.Where(p.Y, y).Where(p.X, x).Mean(p.Z)
		}
	}
	pl, err := plot.HeatMap(plot.Axes{Title: p.Title, X: p.X, Y: p.Y}, xs, ys, z, or(p.Format, "%.2f"))
	e.figure(p.Title, p.Caption, pl, err)
}

// Scatter adds a scatter plot of a run's embedding, coloured by label. An
// embedding of more than two dimensions is shown on its first two principal
// components. A run whose embedding was not stored (too large, or not OK)
// gets a note instead.
func (e *Experiment) Scatter(title string, r Result) {
	if r.embedding == nil {
		e.Note(fmt.Sprintf("No scatter plot %q: the embedding of that run (%s, %s) is not in the results database (run not OK, or larger than --max-embedding).",
			title, r.Field("dataset"), r.Run.Algorithm))
		return
	}
	pts, caption := r.embedding, fmt.Sprintf("%s embedding of %s (n = %d, d = %d)", r.Run.Algorithm, r.Field("dataset"), r.embedding.RawMatrix().Rows, r.Run.Dim)
	if _, d := pts.Dims(); d > 2 {
		pts = project2D(pts)
		caption += ", first two principal components"
	}
	if r.labels != nil {
		caption += ", coloured by class"
	}
	pl, err := plot.Scatter(plot.Axes{Title: title}, pts, r.labels)
	if err == nil {
		pl.X.Label.Text, pl.Y.Label.Text = "", ""
	}
	e.figure(title, caption, pl, err)
}

// project2D returns x centred and projected onto its top two principal
// components.
func project2D(x *mat.Dense) *mat.Dense {
	n, d := x.Dims()
	c := mat.DenseCopyOf(x)
	for j := 0; j < d; j++ {
		var m float64
		for i := 0; i < n; i++ {
			m += c.At(i, j)
		}
		m /= float64(n)
		for i := 0; i < n; i++ {
			c.Set(i, j, c.At(i, j)-m)
		}
	}
	var svd mat.SVD
	if !svd.Factorize(c, mat.SVDThin) {
		panic("exp: SVD of the embedding failed")
	}
	var v mat.Dense
	svd.VTo(&v)
	var out mat.Dense
	out.Mul(c, v.Slice(0, d, 0, 2))
	return &out
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// figure adds a figure named after its title; a figure that cannot be drawn
// (no values at all) becomes a note.
func (e *Experiment) figure(title, caption string, p *gplot.Plot, err error) {
	if err != nil {
		e.Note(fmt.Sprintf("Figure %q not drawn: %v.", title, err))
		return
	}
	e.figures++
	name := fmt.Sprintf("%02d-%s", e.figures, strings.Trim(nonWord.ReplaceAllString(strings.ToLower(title), "-"), "-"))
	if len(name) > 60 {
		name = strings.TrimRight(name[:60], "-")
	}
	e.doc.Add(report.Section{Figure: &report.Figure{Name: name, Caption: or(caption, title), Plot: p}})
}

func or(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
