package plot

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

func TestMeanSD(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name     string
		xs       []float64
		mean, sd float64
		n        int
	}{
		{"one value", []float64{3}, 3, 0, 1},
		{"two values", []float64{1, 3}, 2, math.Sqrt2, 2},
		{"NaN and Inf ignored", []float64{1, nan, 3, math.Inf(1)}, 2, math.Sqrt2, 2},
		{"none", nil, nan, nan, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, sd, n := MeanSD(tc.xs)
			if n != tc.n || !same(m, tc.mean) || !same(sd, tc.sd) {
				t.Errorf("MeanSD(%v) = %v, %v, %d; want %v, %v, %d", tc.xs, m, sd, n, tc.mean, tc.sd, tc.n)
			}
		})
	}
}

func same(a, b float64) bool {
	return (math.IsNaN(a) && math.IsNaN(b)) || math.Abs(a-b) < 1e-12
}

func TestFiguresRejectBadInput(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		draw func() error
		want string
	}{
		{"lines length mismatch", func() error {
			_, err := Lines(Axes{}, []Series{{Name: "a", X: []float64{1, 2}, Samples: [][]float64{{1}}}})
			return err
		}, `series "a" has 2 x values`},
		{"lines all NaN", func() error {
			_, err := Lines(Axes{}, []Series{{Name: "a", X: []float64{1}, Samples: [][]float64{{nan}}}})
			return err
		}, "no finite values"},
		{"bars wrong count", func() error {
			_, err := Bars(Axes{}, []string{"x", "y"}, []Series{{Name: "b", Samples: [][]float64{{1}}}})
			return err
		}, "1 sample lists for 2 categories"},
		{"scatter 3 columns", func() error {
			_, err := Scatter(Axes{}, mat.NewDense(2, 3, nil), nil)
			return err
		}, "needs 2 columns"},
		{"scatter NaN point", func() error {
			_, err := Scatter(Axes{}, mat.NewDense(1, 2, []float64{nan, 0}), nil)
			return err
		}, "point 0 is not finite"},
		{"heat map ragged", func() error {
			_, err := HeatMap(Axes{}, []string{"a", "b"}, []string{"r"}, [][]float64{{1}}, "%.1f")
			return err
		}, "row 0 has 1 values for 2 columns"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.draw()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestSaveWritesPNGAndSVG(t *testing.T) {
	dir := t.TempDir()
	lines, err := Lines(Axes{Title: "error vs λ", X: "λ", Y: "error", LogX: true}, []Series{
		{Name: "soe", X: []float64{1, 2, 4}, Samples: [][]float64{{0.3, 0.32}, {0.1, 0.12}, {0.05, math.NaN()}}},
		{Name: "ste", X: []float64{1, 2, 4}, Samples: [][]float64{{0.4}, {0.2}, {0.1}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	bars, err := Bars(Axes{Title: "test error", Y: "error"}, []string{"char", "usps"}, []Series{
		{Name: "soe", Samples: [][]float64{{0.03, 0.04}, {0.02}}},
		{Name: "ste", Samples: [][]float64{{0.05}, nil}},
	})
	if err != nil {
		t.Fatal(err)
	}
	logBars, err := Bars(Axes{Title: "time", Y: "seconds", LogY: true}, []string{"char", "usps"}, []Series{
		{Name: "soe", Samples: [][]float64{{1, 3}, {20}}},
		{Name: "ste", Samples: [][]float64{{0.5}, nil}},
	})
	if err != nil {
		t.Fatal(err)
	}
	scatter, err := Scatter(Axes{Title: "embedding"}, mat.NewDense(3, 2, []float64{0, 0, 1, 1, 2, 0}), []int{0, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	heat, err := HeatMap(Axes{Title: "error", X: "λ", Y: "noise"}, []string{"1", "2"}, []string{"0", "0.1"},
		[][]float64{{0.1, 0.05}, {0.2, math.NaN()}}, "%.2f")
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []*gplot.Plot{lines, bars, logBars, scatter, heat} {
		base := filepath.Join(dir, "sub", fmt.Sprintf("fig%d", i))
		if err := Save(p, base, 4*vg.Inch, 3*vg.Inch); err != nil {
			t.Fatal(err)
		}
		png, err := os.ReadFile(base + ".png")
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Errorf("fig%d.png: not a PNG (err %v)", i, err)
		}
		svg, err := os.ReadFile(base + ".svg")
		if err != nil || !bytes.Contains(svg, []byte("<svg")) {
			t.Errorf("fig%d.svg: not an SVG (err %v)", i, err)
		}
	}
}

// MeanSD is what the figures draw for a position: the mean of the finite
// samples and their standard deviation.
func ExampleMeanSD() {
	mean, sd, n := MeanSD([]float64{0.1, 0.3, math.NaN()})
	fmt.Printf("%.2f ± %.2f over %d runs\n", mean, sd, n)
	// Output: 0.20 ± 0.14 over 2 runs
}

// Legends never cover data (#15: the test-error bar chart hid the uniform
// bars under its legend): drawn beside the plot, the legend changes no
// pixel of it, and its column lies right of the data area.
func TestLegendBesideData(t *testing.T) {
	many := make([]Series, 10) // ten algorithms, as in the general experiment
	for i := range many {
		many[i] = Series{Name: fmt.Sprintf("algorithm %d", i), Samples: [][]float64{{0.5}, {0.9 - 0.01*float64(i)}}}
	}
	bars, err := Bars(Axes{Title: "test error", Y: "error"}, []string{"char", "uniform"}, many)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := Lines(Axes{Title: "error"}, []Series{{Name: "soe", X: []float64{1, 2}, Samples: [][]float64{{0.9}, {0.95}}}})
	if err != nil {
		t.Fatal(err)
	}
	scatter, err := Scatter(Axes{}, mat.NewDense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0}), []int{0, 1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 7 * vg.Inch, 4.5 * vg.Inch
	for name, p := range map[string]*gplot.Plot{"bars": bars, "lines": lines, "scatter": scatter} {
		t.Run(name, func(t *testing.T) {
			with := vgimg.New(w, h)
			Draw(draw.New(with), p)
			c := draw.New(vgimg.New(w, h))
			plotC, legendC, ok := layout(c, p)
			if !ok {
				t.Fatal("no legend")
			}
			if data := p.DataCanvas(plotC); legendC.Min.X < data.Max.X {
				t.Errorf("legend column starts at x = %v, inside the data area (to %v)", legendC.Min.X, data.Max.X)
			}
			without := vgimg.New(w, h)
			bare := *p
			bare.Legend = gplot.NewLegend()
			bare.Draw(draw.Crop(draw.New(without), 0, plotC.Max.X-c.Max.X, 0, 0))
			a, b := with.Image(), without.Image()
			limit := int(float64(legendC.Min.X) * with.DPI() / 72)
			for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
				for x := a.Bounds().Min.X; x < limit; x++ {
					if a.At(x, y) != b.At(x, y) {
						t.Fatalf("the legend changed pixel (%d, %d) of the plot", x, y)
					}
				}
			}
		})
	}
}

// Draw renders a figure on any gonum/plot canvas, its legend beside the
// data; Save uses it for the PNG and SVG files.
func ExampleDraw() {
	p, err := Bars(Axes{Title: "test error"}, []string{"char", "uniform"}, []Series{
		{Name: "soe", Samples: [][]float64{{0.03}, {0.02}}},
		{Name: "oenn", Samples: [][]float64{{0.15}, {0.46}}},
	})
	if err != nil {
		panic(err)
	}
	c := vgimg.New(4*vg.Inch, 3*vg.Inch)
	Draw(draw.New(c), p)
	fmt.Println(c.Image().Bounds())
	// Output: (0,0)-(384,288)
}
