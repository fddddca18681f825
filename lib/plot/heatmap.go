package plot

import (
	"errors"
	"fmt"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
)

// grid adapts a value matrix to plotter.GridXYZ with cells at integer
// positions, so that unevenly spaced parameters get equal-sized cells.
type grid struct{ z [][]float64 }

func (g grid) Dims() (c, r int)   { return len(g.z[0]), len(g.z) }
func (g grid) Z(c, r int) float64 { return g.z[r][c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

// HeatMap draws z[r][c], the value at column label xs[c] and row label ys[r],
// as coloured cells annotated with their value (format fmtValue, e.g. "%.2f").
// NaN cells stay blank.
func HeatMap(ax Axes, xs, ys []string, z [][]float64, fmtValue string) (*gplot.Plot, error) {
	if len(ys) == 0 || len(xs) == 0 || len(z) != len(ys) {
		return nil, fmt.Errorf("plot: heat map needs %d rows of values, have %d", len(ys), len(z))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for r, row := range z {
		if len(row) != len(xs) {
			return nil, fmt.Errorf("plot: heat map row %d has %d values for %d columns", r, len(row), len(xs))
		}
		for _, v := range row {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return nil, errors.New("plot: no finite values to draw")
	}
	if hi == lo {
		hi = lo + 1
	}
	pal := moreland.SmoothBlueRed()
	pal.SetMin(lo)
	pal.SetMax(hi)
	p := gplot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = ax.Title, ax.X, ax.Y
	h := plotter.NewHeatMap(grid{z}, pal.Palette(64))
	h.Min, h.Max = lo, hi
	p.Add(h)
	var labels plotter.XYLabels
	for r, row := range z {
		for c, v := range row {
			if math.IsNaN(v) {
				continue
			}
			labels.XYs = append(labels.XYs, plotter.XY{X: float64(c), Y: float64(r)})
			labels.Labels = append(labels.Labels, fmt.Sprintf(fmtValue, v))
		}
	}
	if len(labels.XYs) > 0 {
		l, err := plotter.NewLabels(labels)
		if err != nil {
			return nil, err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].XAlign = -0.5
			l.TextStyle[i].YAlign = -0.5
		}
		p.Add(l)
	}
	p.X.Tick.Marker = nominal(xs)
	p.Y.Tick.Marker = nominal(ys)
	return p, nil
}

// nominal labels integer positions with names.
type nominal []string

func (n nominal) Ticks(min, max float64) []gplot.Tick {
	ticks := make([]gplot.Tick, len(n))
	for i, s := range n {
		ticks[i] = gplot.Tick{Value: float64(i), Label: s}
	}
	return ticks
}
