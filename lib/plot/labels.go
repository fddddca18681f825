package plot

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LabelledScatter draws the rows of the n×2 matrix points as dots, each
// with its name beside it: a map of named items.
func LabelledScatter(ax Axes, points *mat.Dense, names []string) (*gplot.Plot, error) {
	if points == nil {
		return nil, errors.New("plot: no points to map")
	}
	n, d := points.Dims()
	if d != 2 {
		return nil, fmt.Errorf("plot: a map needs 2 columns, have %d", d)
	}
	if len(names) != n {
		return nil, fmt.Errorf("plot: %d names for %d points", len(names), n)
	}
	xys := make(plotter.XYs, n)
	for i := range xys {
		x, y := points.At(i, 0), points.At(i, 1)
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return nil, fmt.Errorf("plot: point %d (%s) is not finite", i, names[i])
		}
		xys[i] = plotter.XY{X: x, Y: y}
	}
	p := newPlot(ax)
	dots, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	dots.GlyphStyle = draw.GlyphStyle{Color: Color(0), Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: names})
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].Font.Size = vg.Points(6)
		labels.TextStyle[i].YAlign = draw.YCenter
	}
	labels.Offset = vg.Point{X: vg.Points(3)}
	p.Add(dots, labels)
	// Room on the right for the names of the rightmost items, and above
	// and below for half the height of the outermost names.
	p.X.Max += 0.15 * (p.X.Max - p.X.Min)
	pad := 0.02 * (p.Y.Max - p.Y.Min)
	p.Y.Min, p.Y.Max = p.Y.Min-pad, p.Y.Max+pad
	return p, nil
}
