package plot

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/gonum/mat"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxLegendLabels caps the legend of a scatter plot; with more classes the
// colours repeat and a legend would be unreadable.
const maxLegendLabels = 12

// Scatter draws the rows of the n×2 matrix points, coloured by labels (one per
// row; nil draws every point in one colour).
func Scatter(ax Axes, points *mat.Dense, labels []int) (*gplot.Plot, error) {
	if points == nil {
		return nil, errors.New("plot: no points to scatter")
	}
	n, d := points.Dims()
	if d != 2 {
		return nil, fmt.Errorf("plot: scatter needs 2 columns, have %d", d)
	}
	if labels != nil && len(labels) != n {
		return nil, fmt.Errorf("plot: %d labels for %d points", len(labels), n)
	}
	groups := map[int]plotter.XYs{}
	for i := 0; i < n; i++ {
		x, y := points.At(i, 0), points.At(i, 1)
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return nil, fmt.Errorf("plot: point %d is not finite", i)
		}
		l := 0
		if labels != nil {
			l = labels[i]
		}
		groups[l] = append(groups[l], plotter.XY{X: x, Y: y})
	}
	keys := make([]int, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	p := newPlot(ax)
	radius := vg.Points(math.Max(0.6, math.Min(2.5, 300/math.Sqrt(float64(n)+1)/10)))
	for i, k := range keys {
		s, err := plotter.NewScatter(groups[k])
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: Color(i), Radius: radius, Shape: draw.CircleGlyph{}}
		p.Add(s)
		if labels != nil && len(keys) <= maxLegendLabels {
			p.Legend.Add(strconv.Itoa(k), s)
		}
	}
	return p, nil
}
