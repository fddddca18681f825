package exp

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/oe-lab/oe/lib/plot"
	"github.com/oe-lab/oe/lib/tsne"
)

// maxViewPoints caps the points of one embedding panel: t-SNE of a
// paper-sized embedding (60,000 items) would take longer than the runs, and a
// panel an inch wide shows no more.
const maxViewPoints = 3000

// EmbeddingGrid adds one figure with a panel per (row, column) cell, e.g.
// rows "algorithm" and columns "lambda" as in the paper's embedding figures:
// each panel shows the embedding of the cell's first OK run, coloured by
// class. Embeddings of more than two dimensions are shown as t-SNE views
// (perplexity 30, as the paper's), two-dimensional ones as they are. A cell
// without an OK run, or whose embedding was not stored, is left blank with
// the reason.
func (e *Experiment) EmbeddingGrid(title string, rs Results, rows, cols, caption string) {
	rowVals, colVals := rs.Distinct(rows), rs.Distinct(cols)
	if len(rowVals) == 0 {
		e.Note(fmt.Sprintf("Figure %q not drawn: no runs.", title))
		return
	}
	p := newGridPlot(title)
	var notes plotter.XYLabels
	tsneUsed := false
	for r, rv := range rowVals {
		for c, cv := range colVals {
			x0, y0 := float64(c), -float64(r+1) // panel [x0, x0+1] × [y0, y0+1]
			cell := rs.Where(rows, rv).Where(cols, cv)
			pts, labels, why := e.view(cell)
			if why != "" {
				notes.XYs = append(notes.XYs, plotter.XY{X: x0 + 0.1, Y: y0 + 0.5})
				notes.Labels = append(notes.Labels, why)
				continue
			}
			if _, d := cell.firstOK().embedding.Dims(); d > 2 {
				tsneUsed = true
			}
			if err := addPanelIn(p, pts, labels, x0, y0, bounds(pts)); err != nil {
				e.Note(fmt.Sprintf("Figure %q: panel %s = %s, %s = %s not drawn: %v.", title, rows, rv, cols, cv, err))
			}
		}
	}
	if len(notes.XYs) > 0 {
		if l, err := plotter.NewLabels(notes); err == nil {
			p.Add(l)
		}
	}
	addFrames(p, len(rowVals), len(colVals))
	addGridLabels(p, rowVals, colVals, rows, cols)
	if caption == "" {
		caption = title
	}
	if tsneUsed {
		caption += " Embeddings of more than two dimensions are shown as t-SNE views (perplexity 30)."
	}
	e.figure(title, caption, p, nil)
	last := e.doc.Sections[len(e.doc.Sections)-1].Figure
	last.Width = math.Min(1.5*float64(len(colVals))+1.2, 16)
	last.Height = math.Min(1.5*float64(len(rowVals))+0.8, 22)
}

// TSNE adds a single panel: the embedding of r on t-SNE coordinates (or as
// it is when two-dimensional), coloured by class.
func (e *Experiment) TSNE(title string, r Result) {
	e.EmbeddingGrid(title, Results{r}, "algorithm", "dataset", fmt.Sprintf("%s embedding of %s (n = %s, d = %d).",
		r.Run.Algorithm, r.Field("dataset"), r.Field("n"), r.Run.Dim))
}

// firstOK returns the first OK result with a stored embedding, preferring
// repetition 0 (the zero Result when there is none).
func (rs Results) firstOK() Result {
	var best Result
	for _, r := range rs {
		if r.Status == OK && r.embedding != nil && (best.embedding == nil || r.Run.Rep < best.Run.Rep) {
			best = r
		}
	}
	return best
}

// view returns the 2-D points of a cell's embedding, or why there are none.
func (e *Experiment) view(cell Results) (*mat.Dense, []int, string) {
	r := cell.firstOK()
	switch {
	case len(cell) == 0:
		return nil, nil, "no run"
	case r.embedding == nil:
		if cell[0].Status == OK {
			return nil, nil, "not stored"
		}
		return nil, nil, cell[0].Status
	}
	x, labels := r.embedding, r.labels
	if n, _ := x.Dims(); n > maxViewPoints {
		x, labels = everyKth(x, labels, maxViewPoints)
	}
	if _, d := x.Dims(); d <= 2 {
		if d == 1 {
			n, _ := x.Dims()
			y := mat.NewDense(n, 2, nil)
			y.Slice(0, n, 0, 1).(*mat.Dense).Copy(x)
			x = y
		}
		return x, labels, ""
	}
	y, err := tsneView(x)
	if err != nil {
		return nil, nil, "t-SNE failed"
	}
	return y, labels, ""
}

// tsneView returns the t-SNE view of x: the paper's settings (perplexity
// 30), with the perplexity lowered for embeddings too small for it, and
// fewer iterations below the paper profile to keep reports quick to
// rebuild.
func tsneView(x *mat.Dense) (*mat.Dense, error) {
	n, _ := x.Dims()
	perp := math.Min(tsne.DefaultPerplexity, math.Floor(float64(n-1)/3)-1)
	iters := tsne.DefaultIterations
	if Profile() != Paper {
		iters = 500
	}
	return tsne.Embed(x, tsne.Options{Perplexity: math.Max(perp, 1), Iterations: iters, Seed: 1, Threads: runtime.GOMAXPROCS(0)})
}

// newGridPlot returns a plot without axes, for panels placed in data
// coordinates: panel (column c, row r) covers [c, c+1] × [−r−1, −r].
func newGridPlot(title string) *gplot.Plot {
	p := gplot.New()
	p.Title.Text = title
	p.HideX()
	p.HideY()
	return p
}

// everyKth keeps k rows spread evenly over x (and their labels).
func everyKth(x *mat.Dense, labels []int, k int) (*mat.Dense, []int) {
	n, d := x.Dims()
	out := mat.NewDense(k, d, nil)
	var lab []int
	if labels != nil {
		lab = make([]int, k)
	}
	for i := 0; i < k; i++ {
		src := i * n / k
		out.SetRow(i, x.RawRowView(src))
		if labels != nil {
			lab[i] = labels[src]
		}
	}
	return out, lab
}

// box is the extent of a set of points.
type box struct{ minX, maxX, minY, maxY float64 }

// bounds returns the extent of the finite points of pts.
func bounds(pts *mat.Dense) box {
	n, _ := pts.Dims()
	b := box{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
	for i := 0; i < n; i++ {
		x, y := pts.At(i, 0), pts.At(i, 1)
		b.minX, b.maxX, b.minY, b.maxY = math.Min(b.minX, x), math.Max(b.maxX, x), math.Min(b.minY, y), math.Max(b.maxY, y)
	}
	return b
}

// addPanelIn maps the box b into the unit panel at (x0, y0), keeping the
// aspect ratio, and adds the points coloured by label.
func addPanelIn(p *gplot.Plot, pts *mat.Dense, labels []int, x0, y0 float64, b box) error {
	n, _ := pts.Dims()
	for i := 0; i < n; i++ {
		a, c := pts.At(i, 0), pts.At(i, 1)
		if math.IsNaN(a) || math.IsNaN(c) || math.IsInf(a, 0) || math.IsInf(c, 0) {
			return fmt.Errorf("point %d is not finite", i)
		}
	}
	span := math.Max(b.maxX-b.minX, b.maxY-b.minY)
	if !(span > 0) || math.IsInf(span, 0) {
		span = 1
	}
	const margin = 0.08
	scale := (1 - 2*margin) / span
	cx, cy := (b.minX+b.maxX)/2, (b.minY+b.maxY)/2
	groups := map[int]plotter.XYs{}
	for i := 0; i < n; i++ {
		l := 0
		if labels != nil {
			l = labels[i]
		}
		groups[l] = append(groups[l], plotter.XY{X: x0 + 0.5 + (pts.At(i, 0)-cx)*scale, Y: y0 + 0.5 + (pts.At(i, 1)-cy)*scale})
	}
	keys := make([]int, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	radius := vg.Points(math.Max(0.4, math.Min(1.5, 40/math.Sqrt(float64(n)+1))))
	for i, k := range keys {
		s, err := plotter.NewScatter(groups[k])
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: plot.Color(i), Radius: radius, Shape: draw.CircleGlyph{}}
		p.Add(s)
	}
	return nil
}

// addFrames draws the panel borders.
func addFrames(p *gplot.Plot, rows, cols int) {
	for r := 0; r <= rows; r++ {
		if l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: -float64(r)}, {X: float64(cols), Y: -float64(r)}}); err == nil {
			l.LineStyle.Color = plot.Color(7)
			l.LineStyle.Width = vg.Points(0.4)
			p.Add(l)
		}
	}
	for c := 0; c <= cols; c++ {
		if l, err := plotter.NewLine(plotter.XYs{{X: float64(c), Y: 0}, {X: float64(c), Y: -float64(rows)}}); err == nil {
			l.LineStyle.Color = plot.Color(7)
			l.LineStyle.Width = vg.Points(0.4)
			p.Add(l)
		}
	}
}

// addGridLabels writes the column values above the panels and the row
// values at their left, as text inside the plot (the axes are hidden).
func addGridLabels(p *gplot.Plot, rowVals, colVals []string, rows, cols string) {
	var l plotter.XYLabels
	for c, v := range colVals {
		l.XYs = append(l.XYs, plotter.XY{X: float64(c) + 0.5, Y: 0.08})
		if cols != "" {
			v = cols + " " + v
		}
		l.Labels = append(l.Labels, v)
	}
	for r, v := range rowVals {
		l.XYs = append(l.XYs, plotter.XY{X: -0.05, Y: -float64(r) - 0.5})
		l.Labels = append(l.Labels, v)
	}
	labels, err := plotter.NewLabels(l)
	if err != nil {
		return
	}
	for i := range labels.TextStyle {
		if i < len(colVals) {
			labels.TextStyle[i].XAlign = draw.XCenter
		} else {
			labels.TextStyle[i].XAlign = draw.XRight
			labels.TextStyle[i].YAlign = draw.YCenter
		}
	}
	p.Add(labels)
	// Room for the labels: the data range covers them.
	p.X.Min, p.X.Max = -0.9, float64(len(colVals))
	p.Y.Min, p.Y.Max = -float64(len(rowVals)), 0.25
}

// ParamHeatMap adds a heat map like HeatMap, where X or Y may also name an
// algorithm parameter as "param:NAME" (e.g. "param:width" of OENN). Numeric
// axis values are sorted ascending.
func (e *Experiment) ParamHeatMap(p HeatMap) {
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
	e.figure(p.Title, p.Caption, pl, err)
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
