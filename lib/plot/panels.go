package plot

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Panels is a figure of rows × columns of scatter panels without axes, as
// the paper's embedding figures are drawn: each panel shows 2-D points
// coloured by label, scaled into its cell, with the row labels at the left
// and the column labels on top. Fill the panels with Scatter or Note, then
// take the figure from Plot.
//
// Panel (row r, column c) covers [c, c+1] × [−r−1, −r] in the plot's data
// coordinates. A row or column outside the figure is a caller bug and
// panics.
type Panels struct {
	rowLabels, colLabels []string
	p                    *gplot.Plot
	notes                plotter.XYLabels
	done                 bool
}

// NewPanels returns an empty figure with one row per row label and one
// column per column label.
func NewPanels(title string, rowLabels, colLabels []string) *Panels {
	p := gplot.New()
	p.Title.Text = title
	p.HideX()
	p.HideY()
	return &Panels{rowLabels: rowLabels, colLabels: colLabels, p: p}
}

// Box is the extent of a set of 2-D points.
type Box struct{ MinX, MaxX, MinY, MaxY float64 }

// Bounds returns the extent of the rows of the n × 2 matrix pts.
func Bounds(pts *mat.Dense) Box {
	n, _ := pts.Dims()
	b := Box{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
	for i := 0; i < n; i++ {
		x, y := pts.At(i, 0), pts.At(i, 1)
		b.MinX, b.MaxX, b.MinY, b.MaxY = math.Min(b.MinX, x), math.Max(b.MaxX, x), math.Min(b.MinY, y), math.Max(b.MaxY, y)
	}
	return b
}

// cell panics unless (row, col) is a panel of the figure, and returns the
// corner of its cell.
func (g *Panels) cell(row, col int) (x0, y0 float64) {
	if row < 0 || row >= len(g.rowLabels) || col < 0 || col >= len(g.colLabels) {
		panic(fmt.Sprintf("plot: panel (%d, %d) outside a figure of %d × %d panels", row, col, len(g.rowLabels), len(g.colLabels)))
	}
	return float64(col), -float64(row + 1)
}

// Scatter draws the rows of the n × 2 matrix pts into panel (row, col),
// coloured by labels (one per row; nil draws one colour). The box b is
// mapped onto the panel keeping its aspect ratio, so that panels given the
// same box share a scale; Bounds(pts) fills the panel. It is an error for
// pts not to have 2 columns, for labels to be of another length, and for a
// point not to be finite.
func (g *Panels) Scatter(row, col int, pts *mat.Dense, labels []int, b Box) error {
	x0, y0 := g.cell(row, col)
	n, d := pts.Dims()
	if d != 2 {
		return fmt.Errorf("plot: panel needs 2 columns, have %d", d)
	}
	if labels != nil && len(labels) != n {
		return fmt.Errorf("plot: %d labels for %d points", len(labels), n)
	}
	for i := 0; i < n; i++ {
		a, c := pts.At(i, 0), pts.At(i, 1)
		if math.IsNaN(a) || math.IsNaN(c) || math.IsInf(a, 0) || math.IsInf(c, 0) {
			return fmt.Errorf("plot: point %d is not finite", i)
		}
	}
	span := math.Max(b.MaxX-b.MinX, b.MaxY-b.MinY)
	if !(span > 0) || math.IsInf(span, 0) {
		span = 1
	}
	const margin = 0.08
	scale := (1 - 2*margin) / span
	cx, cy := (b.MinX+b.MaxX)/2, (b.MinY+b.MaxY)/2
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
		s.GlyphStyle = draw.GlyphStyle{Color: Color(i), Radius: radius, Shape: draw.CircleGlyph{}}
		g.p.Add(s)
	}
	return nil
}

// Note writes text into panel (row, col), e.g. why it has no points.
func (g *Panels) Note(row, col int, text string) {
	x0, y0 := g.cell(row, col)
	g.notes.XYs = append(g.notes.XYs, plotter.XY{X: x0 + 0.1, Y: y0 + 0.5})
	g.notes.Labels = append(g.notes.Labels, text)
}

// Plot returns the figure: the panels with their notes, frames and labels.
// The figure is finished by the first call; later panels are not drawn.
func (g *Panels) Plot() *gplot.Plot {
	if g.done {
		return g.p
	}
	g.done = true
	if len(g.notes.XYs) > 0 {
		if l, err := plotter.NewLabels(g.notes); err == nil {
			g.p.Add(l)
		}
	}
	g.addFrames()
	g.addLabels()
	return g.p
}

// addFrames draws the panel borders.
func (g *Panels) addFrames() {
	rows, cols := float64(len(g.rowLabels)), float64(len(g.colLabels))
	var lines []plotter.XYs
	for r := 0.0; r <= rows; r++ {
		lines = append(lines, plotter.XYs{{X: 0, Y: -r}, {X: cols, Y: -r}})
	}
	for c := 0.0; c <= cols; c++ {
		lines = append(lines, plotter.XYs{{X: c, Y: 0}, {X: c, Y: -rows}})
	}
	for _, xy := range lines {
		if l, err := plotter.NewLine(xy); err == nil {
			l.LineStyle.Color = Color(7)
			l.LineStyle.Width = vg.Points(0.4)
			g.p.Add(l)
		}
	}
}

// addLabels writes the column labels above the panels and the row labels
// at their left, as text inside the plot (the axes are hidden), and sets
// the data range to make room for them.
func (g *Panels) addLabels() {
	var l plotter.XYLabels
	for c, v := range g.colLabels {
		l.XYs = append(l.XYs, plotter.XY{X: float64(c) + 0.5, Y: 0.08})
		l.Labels = append(l.Labels, v)
	}
	for r, v := range g.rowLabels {
		l.XYs = append(l.XYs, plotter.XY{X: -0.05, Y: -float64(r) - 0.5})
		l.Labels = append(l.Labels, v)
	}
	labels, err := plotter.NewLabels(l)
	if err == nil {
		for i := range labels.TextStyle {
			if i < len(g.colLabels) {
				labels.TextStyle[i].XAlign = draw.XCenter
			} else {
				labels.TextStyle[i].XAlign = draw.XRight
				labels.TextStyle[i].YAlign = draw.YCenter
			}
		}
		g.p.Add(labels)
	}
	g.p.X.Min, g.p.X.Max = -0.9, float64(len(g.colLabels))
	g.p.Y.Min, g.p.Y.Max = -float64(len(g.rowLabels)), 0.25
}
