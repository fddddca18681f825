package plot

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"
)

func TestPanelsRejectBadInput(t *testing.T) {
	g := NewPanels("t", []string{"soe"}, []string{"λ 1", "λ 2"})
	tests := []struct {
		name   string
		pts    *mat.Dense
		labels []int
		want   string
	}{
		{"3 columns", mat.NewDense(2, 3, nil), nil, "needs 2 columns, have 3"},
		{"labels length", mat.NewDense(2, 2, nil), []int{1}, "1 labels for 2 points"},
		{"Inf point", mat.NewDense(2, 2, []float64{0, 0, math.Inf(-1), 1}), nil, "point 1 is not finite"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := g.Scatter(0, 1, tc.pts, tc.labels, Box{0, 1, 0, 1})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	for _, cell := range [][2]int{{1, 0}, {0, 2}, {-1, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("panel %v of a 1 × 2 figure did not panic", cell)
				}
			}()
			g.Note(cell[0], cell[1], "x")
		}()
	}
}

func TestBounds(t *testing.T) {
	got := Bounds(mat.NewDense(3, 2, []float64{1, -2, 4, 0, -1, 5}))
	if want := (Box{MinX: -1, MaxX: 4, MinY: -2, MaxY: 5}); got != want {
		t.Errorf("Bounds = %+v, want %+v", got, want)
	}
}

func TestPanelsPlot(t *testing.T) {
	// Two classes in panel (0, 0), a note in (1, 1) of a 2 × 2 figure.
	g := NewPanels("embeddings", []string{"soe", "ste"}, []string{"λ 1", "λ 2"})
	pts := mat.NewDense(3, 2, []float64{0, 0, 1, 1, 2, 0})
	if err := g.Scatter(0, 0, pts, []int{0, 1, 1}, Bounds(pts)); err != nil {
		t.Fatal(err)
	}
	g.Note(1, 1, "failed")
	p := g.Plot()
	// A glyph per point, the note, the 2 row and 2 column labels, and the
	// 2 ends of each of the 3 + 3 frame lines.
	const want = 3 + 1 + 4 + 2*6
	if got := len(p.GlyphBoxes(p)); got != want {
		t.Errorf("%d glyphs, want %d", got, want)
	}
	if again := g.Plot(); len(again.GlyphBoxes(again)) != want {
		t.Errorf("a second Plot call drew %d glyphs, want %d", len(again.GlyphBoxes(again)), want)
	}
	if p.X.Min != -0.9 || p.X.Max != 2 || p.Y.Min != -2 || p.Y.Max != 0.25 {
		t.Errorf("data range x [%v, %v], y [%v, %v], want x [-0.9, 2], y [-2, 0.25]", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	if err := Save(p, t.TempDir()+"/panels", 4*vg.Inch, 4*vg.Inch); err != nil {
		t.Fatal(err)
	}
}

// Two embeddings side by side on one scale: the second is the first moved
// right, so it fills only the right part of its panel.
func ExamplePanels() {
	a := mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 1})
	b := mat.NewDense(3, 2, []float64{2, 0, 3, 0, 2, 1})
	box := Bounds(mat.NewDense(6, 2, []float64{0, 0, 1, 0, 0, 1, 2, 0, 3, 0, 2, 1}))
	g := NewPanels("two parts, one scale", []string{""}, []string{"first", "second"})
	for c, pts := range []*mat.Dense{a, b} {
		if err := g.Scatter(0, c, pts, nil, box); err != nil {
			panic(err)
		}
	}
	p := g.Plot()
	fmt.Printf("panels over x [%v, %v], y [%v, %v]; labels at the left and on top\n", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	// Output: panels over x [-0.9, 2], y [-1, 0.25]; labels at the left and on top
}
