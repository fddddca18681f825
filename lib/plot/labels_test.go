package plot

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"
)

func TestLabelledScatter(t *testing.T) {
	pts := mat.NewDense(3, 2, []float64{0, 0, 1, 2, -1, 0.5})
	p, err := LabelledScatter(Axes{Title: "materials"}, pts, []string{"silk", "steel", "wool"})
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min != -1 || p.X.Max <= 1 {
		t.Errorf("x axis [%v, %v]: want the points' [-1, 1] and room on the right", p.X.Min, p.X.Max)
	}
	base := filepath.Join(t.TempDir(), "map")
	if err := Save(p, base, 4*vg.Inch, 3*vg.Inch); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(base + ".png"); err != nil || st.Size() == 0 {
		t.Errorf("no PNG: %v", err)
	}
	for _, tc := range []struct {
		name  string
		pts   *mat.Dense
		names []string
		want  string
	}{
		{"no points", nil, nil, "no points"},
		{"three columns", mat.NewDense(1, 3, nil), []string{"a"}, "needs 2 columns, have 3"},
		{"names short", pts, []string{"a"}, "1 names for 3 points"},
		{"NaN", mat.NewDense(1, 2, []float64{math.NaN(), 0}), []string{"a"}, "point 0 (a) is not finite"},
	} {
		if _, err := LabelledScatter(Axes{}, tc.pts, tc.names); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
