package exp

import (
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/internal/session"
	"github.com/oe-lab/oe/runner/report"
)

func TestEveryKth(t *testing.T) {
	x := mat.NewDense(10, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	y, lab := everyKth(x, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 4)
	want := []float64{0, 2, 5, 7}
	for i, w := range want {
		if y.At(i, 0) != w || lab[i] != int(w) {
			t.Errorf("row %d = %v (label %d), want %v", i, y.At(i, 0), lab[i], w)
		}
	}
}

func TestOriginal(t *testing.T) {
	tests := []struct {
		name    string
		run     Run
		figure  string // the caption of the figure added, or "" for none
		noteHas string // part of the note added instead
	}{
		{"2D data as it is", Run{Dataset: "gmm", N: 40, Algorithm: "soe", Dim: 2, Seed: 1},
			"The original data of gmm: 40 items in 2 dimensions, coloured by class (labels are not used for the triplets).", ""},
		{"data that cannot load", Run{Dataset: "gmm", N: 40, PCA: 5, Algorithm: "soe", Dim: 2, Seed: 1}, "", "No figure \"original\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := &Experiment{s: &session.Session{}, doc: &report.Doc{}}
			e.Original("original", Result{Run: tc.run, Used: tc.run.Dataset, Status: Missing})
			var captions []string
			for _, s := range e.doc.Sections {
				if s.Figure != nil {
					captions = append(captions, s.Figure.Caption)
				}
			}
			notes := strings.Join(e.doc.Notes, "\n")
			switch {
			case tc.figure != "" && (len(captions) != 1 || captions[0] != tc.figure):
				t.Errorf("figures %q, want one captioned %q (notes: %s)", captions, tc.figure, notes)
			case tc.figure == "" && (len(captions) != 0 || !strings.Contains(notes, tc.noteHas)):
				t.Errorf("figures %q, notes %q; want none and a note with %q", captions, notes, tc.noteHas)
			}
		})
	}
}

func TestCurves(t *testing.T) {
	trace := []embed.Epoch{{Epoch: 1, TrainError: 0.5}, {Epoch: 2, TrainError: 0.25}}
	soe := Result{Run: Run{Algorithm: "soe"}, Status: OK, Trace: trace}
	e := &Experiment{s: &session.Session{}, doc: &report.Doc{}}
	e.Curves(CurvePlot{Title: "curves", Results: Results{soe}, Lines: "algorithm"})
	e.Curves(CurvePlot{Title: "no traces", Results: Results{{Run: Run{Algorithm: "ste"}, Status: Failed}}, Lines: "algorithm"})
	if len(e.doc.Sections) != 1 || e.doc.Sections[0].Figure == nil || e.doc.Sections[0].Figure.Caption != "curves" {
		t.Errorf("sections %+v, want the one figure \"curves\"", e.doc.Sections)
	}
	if len(e.doc.Notes) != 1 || !strings.Contains(e.doc.Notes[0], `"no traces" not drawn`) {
		t.Errorf("notes %q, want one saying \"no traces\" was not drawn", e.doc.Notes)
	}
	xs, samples := Results{soe, soe}.trainErrorCurve()
	if !reflect.DeepEqual(xs, []float64{1, 2}) || !reflect.DeepEqual(samples, [][]float64{{0.5, 0.5}, {0.25, 0.25}}) {
		t.Errorf("trainErrorCurve = %v, %v", xs, samples)
	}
}
