package plot

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/oe-lab/oe/lib/internal/atomicfile"
)

// Axes are the labels and scales of a figure.
type Axes struct {
	Title, X, Y string
	// LogX and LogY put the axis on a logarithmic scale; every value drawn on
	// it must then be positive.
	LogX, LogY bool
}

// Series is one line (or one set of bars) of a figure: at each position X[i]
// it holds the samples Samples[i] (one per repetition); the figure draws their
// mean with a ±1 standard deviation error bar.
type Series struct {
	Name    string
	X       []float64
	Samples [][]float64
}

// palette10 is the Tableau 10 palette: distinguishable colours for up to ten
// algorithms, in a fixed order so an algorithm keeps its colour across figures
// when the caller passes series in the same order.
var palette10 = []color.Color{
	color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0xff, 0x7f, 0x0e, 0xff},
	color.RGBA{0x2c, 0xa0, 0x2c, 0xff}, color.RGBA{0xd6, 0x27, 0x28, 0xff},
	color.RGBA{0x94, 0x67, 0xbd, 0xff}, color.RGBA{0x8c, 0x56, 0x4b, 0xff},
	color.RGBA{0xe3, 0x77, 0xc2, 0xff}, color.RGBA{0x7f, 0x7f, 0x7f, 0xff},
	color.RGBA{0xbc, 0xbd, 0x22, 0xff}, color.RGBA{0x17, 0xbe, 0xcf, 0xff},
}

// Color returns the i-th colour of the palette used by every figure.
func Color(i int) color.Color { return palette10[((i%len(palette10))+len(palette10))%len(palette10)] }

// NumColors is the number of distinct colours Color cycles through.
func NumColors() int { return len(palette10) }

// MeanSD returns the mean and the sample standard deviation of the finite
// values of xs, and how many there were. The deviation is 0 for one value;
// both are NaN for none.
func MeanSD(xs []float64) (mean, sd float64, n int) {
	var sum float64
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			sum += x
			n++
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	mean = sum / float64(n)
	if n == 1 {
		return mean, 0, 1
	}
	var ss float64
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			ss += (x - mean) * (x - mean)
		}
	}
	return mean, math.Sqrt(ss / float64(n-1)), n
}

func newPlot(ax Axes) *gplot.Plot {
	p := gplot.New()
	p.Title.Text = ax.Title
	p.X.Label.Text = ax.X
	p.Y.Label.Text = ax.Y
	if ax.LogX {
		p.X.Scale = gplot.LogScale{}
		p.X.Tick.Marker = gplot.LogTicks{Prec: -1}
	}
	if ax.LogY {
		p.Y.Scale = gplot.LogScale{}
		p.Y.Tick.Marker = gplot.LogTicks{Prec: -1}
	}
	p.Add(plotter.NewGrid())
	return p
}

// errPoints are the means and deviations of a series, implementing the
// interfaces plotter's lines and error bars read.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// summarise turns a series into mean points with error bars, leaving out
// positions without a finite sample and, on log axes, non-positive values.
func summarise(s Series, ax Axes) (errPoints, error) {
	if len(s.X) != len(s.Samples) {
		return errPoints{}, fmt.Errorf("plot: series %q has %d x values but %d sample lists", s.Name, len(s.X), len(s.Samples))
	}
	var pts errPoints
	for i, x := range s.X {
		m, sd, n := MeanSD(s.Samples[i])
		if n == 0 || math.IsNaN(x) || (ax.LogX && x <= 0) || (ax.LogY && m <= 0) {
			continue
		}
		low := sd
		if ax.LogY && m-low <= 0 {
			low = m / 2 // keep the bar on the axis
		}
		pts.XYs = append(pts.XYs, plotter.XY{X: x, Y: m})
		pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{low, sd})
	}
	return pts, nil
}

// Lines draws one line per series, the mean of its samples at each x with an
// error bar of ±1 standard deviation.
func Lines(ax Axes, series []Series) (*gplot.Plot, error) {
	p := newPlot(ax)
	drawn := 0
	for i, s := range series {
		pts, err := summarise(s, ax)
		if err != nil {
			return nil, err
		}
		if len(pts.XYs) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(pts.XYs)
		if err != nil {
			return nil, fmt.Errorf("plot: series %q: %w", s.Name, err)
		}
		c := Color(i)
		line.Color = c
		line.Width = vg.Points(1.5)
		points.Color = c
		points.Shape = draw.CircleGlyph{}
		bars, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, fmt.Errorf("plot: series %q: %w", s.Name, err)
		}
		bars.Color = c
		p.Add(line, points, bars)
		p.Legend.Add(s.Name, line, points)
		drawn++
	}
	if drawn == 0 {
		return nil, errors.New("plot: no finite values to draw")
	}
	return p, nil
}

// Bars draws a grouped bar chart: one group per category along x, one bar per
// series in each group with its mean and a ±1 standard deviation error bar.
// Series.X is ignored; Series.Samples[i] belongs to categories[i]. A missing
// value (no finite sample) leaves a gap. On a log y axis, where bars from 0
// cannot be drawn, the means are dots.
func Bars(ax Axes, categories []string, series []Series) (*gplot.Plot, error) {
	if len(categories) == 0 || len(series) == 0 {
		return nil, errors.New("plot: a bar chart needs at least one category and one series")
	}
	p := newPlot(ax)
	width := vg.Points(math.Max(3, math.Min(14, 220/float64(len(categories)*len(series)))))
	drawn := 0
	for i, s := range series {
		if len(s.Samples) != len(categories) {
			return nil, fmt.Errorf("plot: series %q has %d sample lists for %d categories", s.Name, len(s.Samples), len(categories))
		}
		vals := make(plotter.Values, len(categories))
		var pts errPoints
		for c := range categories {
			m, sd, n := MeanSD(s.Samples[c])
			if n == 0 || (ax.LogY && m <= 0) {
				vals[c] = 0
				continue
			}
			vals[c] = m
			low := math.Min(sd, m) // bars do not go below 0
			if ax.LogY {
				low = math.Min(sd, m/2) // nor, on a log axis, to 0
			}
			pts.XYs = append(pts.XYs, plotter.XY{X: float64(c), Y: m})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{low, sd})
		}
		offset := (float64(i) - float64(len(series)-1)/2) * float64(width)
		if ax.LogY {
			// Bars grow from 0, which a log axis cannot show: draw the means
			// as dots instead.
			if len(pts.XYs) > 0 {
				dots, err := plotter.NewScatter(pts.XYs)
				if err != nil {
					return nil, fmt.Errorf("plot: series %q: %w", s.Name, err)
				}
				dots.GlyphStyle = draw.GlyphStyle{Color: Color(i), Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
				p.Add(offsetPlotter{dots, vg.Length(offset)})
				p.Legend.Add(s.Name, dots)
			}
		} else {
			bar, err := plotter.NewBarChart(vals, width)
			if err != nil {
				return nil, fmt.Errorf("plot: series %q: %w", s.Name, err)
			}
			bar.Offset = vg.Length(offset)
			bar.Color = Color(i)
			bar.LineStyle.Width = 0
			p.Add(bar)
			p.Legend.Add(s.Name, bar)
		}
		if len(pts.XYs) > 0 {
			eb, err := plotter.NewYErrorBars(pts)
			if err != nil {
				return nil, fmt.Errorf("plot: series %q: %w", s.Name, err)
			}
			eb.CapWidth = width / 2
			eb.Color = Color(i)
			p.Add(offsetPlotter{eb, vg.Length(offset)})
			drawn++
		}
	}
	if drawn == 0 {
		return nil, errors.New("plot: no finite values to draw")
	}
	p.NominalX(categories...)
	// Room for the groups' outer bars, and a little above the highest error
	// bar (the legend is drawn beside the data: Draw).
	p.X.Min, p.X.Max = -0.5, float64(len(categories))-0.5
	if ax.LogY {
		p.Y.Max *= 1.5
	} else {
		p.Y.Min = 0
		p.Y.Max *= 1.05
	}
	return p, nil
}

// offsetPlotter draws a plotter shifted sideways by a fixed canvas offset,
// so that error bars and dots sit on their bar within a group.
type offsetPlotter struct {
	plotter interface {
		gplot.Plotter
		gplot.DataRanger
	}
	offset vg.Length
}

func (o offsetPlotter) Plot(c draw.Canvas, p *gplot.Plot) {
	c.Rectangle.Min.X += o.offset
	c.Rectangle.Max.X += o.offset
	o.plotter.Plot(c, p)
}

// DataRange is the wrapped plotter's, so that the axes fit it.
func (o offsetPlotter) DataRange() (xmin, xmax, ymin, ymax float64) { return o.plotter.DataRange() }

// Save writes p as base+".png" and base+".svg", creating base's folder,
// drawn by Draw (the legend beside the data, never over it). The size is
// w × h. A panic of gonum/plot while drawing (it panics on, e.g., a
// non-positive value on a log axis) is returned as an error.
func Save(p *gplot.Plot, base string, w, h vg.Length) error {
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return err
	}
	for _, ext := range []string{".png", ".svg"} {
		if err := SaveFile(p, base+ext, w, h); err != nil {
			return err
		}
	}
	return nil
}

// SaveFile writes p to path in the format its extension names (.png, .svg,
// .pdf, ...), drawn by Draw at size w × h, whole or not at all. A panic of
// gonum/plot while drawing is returned as an error.
func SaveFile(p *gplot.Plot, path string, w, h vg.Length) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("plot: draw %s: %v", path, r)
		}
	}()
	c, err := draw.NewFormattedCanvas(w, h, strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), "."))
	if err != nil {
		return fmt.Errorf("plot: save %s: %w", path, err)
	}
	Draw(draw.New(c), p)
	err = atomicfile.Write(path, func(w io.Writer) error {
		_, err := c.WriteTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("plot: save %s: %w", path, err)
	}
	return nil
}

// legendGap is the space between the plot and a legend beside it.
const legendGap = 6 // points

// Draw draws p on c with its legend, if it has entries, in a column to the
// right of the plot, its top level with the top of the data area: outside
// the data, so that it never covers a line, bar or point (gonum/plot draws
// the legend inside the data area). p is not changed.
func Draw(c draw.Canvas, p *gplot.Plot) {
	plotC, legendC, ok := layout(c, p)
	if !ok {
		p.Draw(c)
		return
	}
	bare := *p
	bare.Legend = gplot.NewLegend() // none inside the data area
	bare.Draw(plotC)
	l := p.Legend
	l.Top, l.Left = true, true
	l.XOffs, l.YOffs = 0, 0
	l.Draw(legendC)
}

// layout splits c into the plot's part and, to its right, the legend's
// column as high as the data area; ok is false for a plot without legend
// entries.
func layout(c draw.Canvas, p *gplot.Plot) (plotC, legendC draw.Canvas, ok bool) {
	r := p.Legend.Rectangle(c)
	width := r.Max.X - r.Min.X
	if width <= 0 {
		return c, draw.Canvas{}, false
	}
	plotC = draw.Crop(c, 0, -(width + vg.Points(legendGap)), 0, 0)
	data := p.DataCanvas(plotC)
	legendC = draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: c.Max.X - width, Y: c.Min.Y},
		Max: vg.Point{X: c.Max.X, Y: data.Max.Y},
	}}
	return plotC, legendC, true
}
