package exp

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/runner/internal/session"
	"github.com/oe-lab/oe/runner/report"
)

// stored returns an OK run of alg at λ with train and test errors and a
// stored 2-D view whose first crowd rows are the origin (the first of them
// −0) and the rest distinct.
func stored(alg string, lambda float64, rep, n, crowd int, train, test float64) Result {
	r := ok(Run{Dataset: "worms", Algorithm: alg, Dim: 2, Lambda: lambda, Rep: rep}, map[string]float64{TrainError: train, TestError: test})
	r.embedding, r.view = mat.NewDense(n, 2, nil), true
	r.embedding.Set(0, 0, math.Copysign(0, -1))
	for i := crowd; i < n; i++ {
		r.embedding.Set(i, 0, float64(i))
	}
	return r
}

// TestCollapsed: a run is listed when its test error is above 0.55, with
// how many of its stored items share a point (−0 and 0 one point) or why
// that is unknown; crowded runs better than chance, healthy, failed and
// unmeasured runs are not, and a report without listed runs gets no table.
func TestCollapsed(t *testing.T) {
	tsne := stored("soe", 2, 0, 100, 1, 0.1, 0.62)
	tsne.Run.Dim = 30
	notStored := ok(Run{Dataset: "worms", Algorithm: "oenn", Dim: 2, Lambda: 4, Rep: 2}, map[string]float64{TrainError: 0.72, TestError: 0.73})
	tests := []struct {
		name string
		rs   Results
		want []string // rows: algorithm, λ, rep, train, test, items on one point
	}{
		{"collapsed and worse than chance", Results{stored("oenn", 2, 0, 1000, 751, 0.724, 0.725)},
			[]string{"oenn | 2 | 0 | 0.724 | 0.725 | 751 of 1000"}},
		{"crowded but better than chance (untouched items at λ = 0.01)", Results{stored("ckl", 0.01, 0, 1000, 434, 0.007, 0.498)}, nil},
		{"worse than chance, shape unknown", Results{notStored, tsne},
			[]string{"oenn | 4 | 2 | 0.720 | 0.730 | not stored", "soe | 2 | 0 | 0.100 | 0.620 | t-SNE view"}},
		{"healthy, at the threshold", Results{stored("soe", 2, 0, 1000, 1, 0.01, 0.55)}, nil},
		{"failed or unmeasured", Results{
			{Run: Run{Dataset: "worms", Algorithm: "ste", Dim: 2}, Status: Failed},
			ok(Run{Dataset: "worms", Algorithm: "ste", Dim: 2}, map[string]float64{TestError: math.NaN()}),
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := &Experiment{s: &session.Session{Profile: "paper"}, doc: &report.Doc{}}
			e.Collapsed("Collapsed embeddings on worms", tc.rs, "lambda")
			var tables []*report.Table
			for _, s := range e.doc.Sections {
				if s.Table != nil {
					tables = append(tables, s.Table)
				}
			}
			if tc.want == nil {
				if len(e.doc.Sections) != 0 {
					t.Fatalf("sections %+v, want none", e.doc.Sections)
				}
				return
			}
			if len(tables) != 1 || len(e.doc.Sections) != 2 {
				t.Fatalf("sections %+v, want an explanation and one table", e.doc.Sections)
			}
			var got []string
			for _, row := range tables[0].Rows {
				got = append(got, strings.Join(row, " | "))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
