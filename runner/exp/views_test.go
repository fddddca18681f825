package exp

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/internal/session"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/report"
)

// points returns n×d standard normal points and labels i mod 3.
func points(n, d int) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(n, d, nil)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
		labels[i] = i % 3
	}
	return x, labels
}

// figuresAndNotes returns the captions of the figures e's report holds and
// its notes, one a line.
func figuresAndNotes(e *Experiment) (captions []string, notes string) {
	for _, s := range e.doc.Sections {
		if s.Figure != nil {
			captions = append(captions, s.Figure.Caption)
		}
	}
	return captions, strings.Join(e.doc.Notes, "\n")
}

// TestView: the view keeps at most MaxViewPoints items spread evenly, with
// their labels; 2-D embeddings as they are, 1-D ones padded with zeros,
// larger ones on t-SNE coordinates whatever the thread count.
func TestView(t *testing.T) {
	x2, lab2 := points(2*MaxViewPoints, 2)
	x1, _ := points(5, 1)
	x3, lab3 := points(60, 3)
	tests := []struct {
		name   string
		x      *mat.Dense
		labels []int
		// want checks the view y and its labels against x.
		want func(y *mat.Dense, labels []int) bool
	}{
		{"2-D, more than MaxViewPoints items: every second one", x2, lab2, func(y *mat.Dense, labels []int) bool {
			n, d := y.Dims()
			return n == MaxViewPoints && d == 2 && len(labels) == n && y.At(1, 0) == x2.At(2, 0) &&
				y.At(n-1, 1) == x2.At(2*n-2, 1) && labels[1] == lab2[2] && labels[n-1] == lab2[2*n-2]
		}},
		{"2-D, few items: the embedding itself", x2.Slice(0, 10, 0, 2).(*mat.Dense), lab2[:10], func(y *mat.Dense, labels []int) bool {
			return mat.Equal(y, x2.Slice(0, 10, 0, 2)) && labels[9] == lab2[9]
		}},
		{"1-D: a zero second coordinate, no labels", x1, nil, func(y *mat.Dense, labels []int) bool {
			_, d := y.Dims()
			return d == 2 && mat.Equal(y.ColView(0), x1.ColView(0)) && mat.Norm(y.ColView(1), 1) == 0 && labels == nil
		}},
		{"3-D: t-SNE, the same on 1 and 4 threads", x3, lab3, func(y *mat.Dense, labels []int) bool {
			other, _, err := view(x3, lab3, 100, 4)
			n, d := y.Dims()
			return err == nil && n == 60 && d == 2 && mat.Equal(y, other) && labels[59] == lab3[59]
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			y, labels, err := view(tc.x, tc.labels, 100, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.want(y, labels) {
				t.Errorf("view %v, labels %v", mat.Formatted(y, mat.Excerpt(3)), labels)
			}
		})
	}
}

// The view the executor stores (viewer) is what a figure draws of the
// stored embedding (drawn), and a stored view is drawn as it is.
func TestStoredViewIsDrawnView(t *testing.T) {
	e := &Experiment{s: &session.Session{Profile: string(Smoke)}}
	x, labels := points(80, 5)
	stored, storedLabels, err := e.viewer()(x, labels, 1)
	if err != nil {
		t.Fatal(err)
	}
	fromFull, fullLabels, err := e.drawn(Result{embedding: x, labels: labels})
	if err != nil {
		t.Fatal(err)
	}
	fromView, viewLabels, err := e.drawn(Result{embedding: stored, labels: storedLabels, view: true})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(stored, fromFull) || !mat.Equal(fromView, stored) || fullLabels[79] != labels[79] || viewLabels[79] != labels[79] {
		t.Errorf("stored view, drawn from the embedding and drawn from the view differ")
	}
}

// ExtensionViews draws the same figure from a stored view as from the
// stored embedding: the view's first rows are training items, the rest new
// ones. A stored view of another size is refused with a note.
func TestExtensionViewsFromView(t *testing.T) {
	const nTrain, nNew = 3000, 500
	x, labels := points(nTrain+nNew, 2)
	v, vLabels, err := view(x, labels, 0, runtime.GOMAXPROCS(0))
	if err != nil {
		t.Fatal(err)
	}
	ext := func(emb *mat.Dense, labels []int, isView bool) Result {
		return Result{Run: Run{Dataset: "char", Algorithm: "oenn", Dim: 2}, Used: "char", Status: OK, embedding: emb, labels: labels, view: isView,
			Metrics: map[string]float64{job.Items: nTrain, job.ExtensionItems: nNew, job.TrainError: 0.1, job.ExtensionError: 0.2}}
	}
	tests := []struct {
		name     string
		r        Result
		wantNote string // "": a figure
	}{
		{"the embedding", ext(x, labels, false), ""},
		{"its view", ext(v, vLabels, true), ""},
		{"a view of other items", ext(v.Slice(0, 100, 0, 2).(*mat.Dense), vLabels[:100], true), "has 100 rows, not the view of 3500 items"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := &Experiment{s: &session.Session{Profile: string(Smoke)}, doc: &report.Doc{}}
			e.ExtensionViews("extension", tc.r)
			captions, notes := figuresAndNotes(e)
			switch {
			case tc.wantNote != "":
				if len(captions) != 0 || !strings.Contains(notes, tc.wantNote) {
					t.Errorf("figures %q, notes %q; want a note %q", captions, notes, tc.wantNote)
				}
			case len(captions) != 1 || !strings.Contains(captions[0], "of the 3000 training items (left) and the 500 new items") ||
				!strings.Contains(captions[0], fmt.Sprintf("%d of the 3500 items are drawn", MaxViewPoints)) || notes != "":
				t.Errorf("figures %q, notes %q", captions, notes)
			}
		})
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
			captions, notes := figuresAndNotes(e)
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
