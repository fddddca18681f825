package crossval

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	_ "github.com/oe-lab/oe/lib/algorithms"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

// answers draws triplets from 40 points in 3D, each query answered twice.
func answers(t testing.TB) *triplets.Set {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(40, 3, nil)
	for i := range 40 {
		for c := range 3 {
			x.Set(i, c, rng.Float64())
		}
	}
	s, err := triplets.Random(x, 1500, triplets.Noise{}, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	twice := &triplets.Set{N: s.N}
	for r := 0; r < s.Len(); r++ {
		i, j, k := s.At(r)
		twice.Append(i, j, k)
		twice.Append(i, j, k)
	}
	return twice
}

// TestRun cross-validates SOE and STE on points that live in 3D: d = 1
// predicts held-out answers worst and d = 3 best, by far more than a
// standard error, and the run is the same on one thread and two.
func TestRun(t *testing.T) {
	s := answers(t)
	var calls []Progress
	cfg := Config{Methods: []Method{{Name: "soe"}, {Name: "ste"}}, Dims: []int{3, 1, 2}, Folds: 3, Seed: 5, Threads: 1,
		Progress: func(p Progress) { calls = append(calls, p) }}
	res, err := Run(context.Background(), s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Cells {
		t.Logf("%s d=%d: %.3f ± %.3f in %.2f s", c.Method, c.Dim, c.Mean, c.SD, c.MeanSeconds())
	}
	if len(res.Cells) != 6 || len(calls) != 18 || calls[17].Done != 18 || calls[0].Total != 18 {
		t.Fatalf("%d cells, %d progress calls (last %+v), want 6 and 18", len(res.Cells), len(calls), calls[len(calls)-1])
	}
	for m, name := range []string{"soe", "ste"} {
		cells := res.Cells[3*m : 3*m+3]
		for i, c := range cells {
			if c.Method != name || c.Dim != i+1 || len(c.Errors) != 3 {
				t.Errorf("cell %d: %s d=%d with %d folds, want %s d=%d with 3", 3*m+i, c.Method, c.Dim, len(c.Errors), name, i+1)
			}
		}
		if !(cells[0].Mean > cells[1].Mean && cells[0].Mean > cells[2].Mean) {
			t.Errorf("%s: held-out error at d=1,2,3: %.3f %.3f %.3f; want d=1 worst", name, cells[0].Mean, cells[1].Mean, cells[2].Mean)
		}
		ch := res.Choices[m]
		if ch.Method != name || ch.Best != 3 || ch.OneSE != 3 {
			t.Errorf("choice %+v: want d = 3, best and within one SE", ch)
		}
	}
	cfg.Threads, cfg.Progress = 2, nil
	again, err := Run(context.Background(), s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for c := range res.Cells {
		if !slices.Equal(again.Cells[c].Errors, res.Cells[c].Errors) {
			t.Errorf("cell %d: errors %v on one thread, %v on two", c, res.Cells[c].Errors, again.Cells[c].Errors)
		}
	}
}

func TestChoose(t *testing.T) {
	// By hand: the best mean is 0.20 at d=5 with SD 0.02 over 4 folds, so
	// SE 0.01 and the limit 0.21.
	cell := func(d int, mean, sd float64) Cell {
		return Cell{Dim: d, Mean: mean, SD: sd, Errors: make([]float64, 4)}
	}
	for _, tc := range []struct {
		name        string
		cells       []Cell
		best, oneSE int
	}{
		{"smaller d within one SE", []Cell{cell(1, 0.30, 0), cell(2, 0.21, 0), cell(3, 0.205, 0), cell(5, 0.20, 0.02)}, 5, 2},
		{"just outside", []Cell{cell(1, 0.30, 0), cell(2, 0.2101, 0), cell(5, 0.20, 0.02)}, 5, 5},
		{"best first", []Cell{cell(1, 0.1, 0.05), cell(2, 0.12, 0)}, 1, 1},
		{"tie: the smaller d", []Cell{cell(2, 0.2, 0), cell(3, 0.2, 0)}, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Choose("m", tc.cells); got.Best != tc.best || got.OneSE != tc.oneSE {
				t.Errorf("choose = best %d, one-SE %d; want %d, %d", got.Best, got.OneSE, tc.best, tc.oneSE)
			}
		})
	}
}

func TestRunErrors(t *testing.T) {
	s := answers(t)
	few := &triplets.Set{N: 3, Idx: []int32{0, 1, 2, 0, 2, 1, 1, 0, 2}} // two queries
	soe := []Method{{Name: "soe"}}
	for _, tc := range []struct {
		name string
		s    *triplets.Set
		cfg  Config
		want string
	}{
		{"more folds than queries", few, Config{Methods: soe, Dims: []int{2}, Folds: 3}, "crossval: triplets: 3 folds of 2 queries: want 2 to 2 folds"},
		{"active method", s, Config{Methods: []Method{{Name: "loe"}}, Dims: []int{2}, Folds: 2}, "crossval: loe is an active method"},
		{"unknown method", s, Config{Methods: []Method{{Name: "pca"}}, Dims: []int{2}, Folds: 2}, `crossval: embed: unknown algorithm "pca"`},
		{"bad parameter", s, Config{Methods: []Method{{Name: "soe", Params: map[string]float64{"margin": -1}}}, Dims: []int{2}, Folds: 2}, "margin"},
		{"method twice", s, Config{Methods: []Method{{Name: "soe"}, {Name: "soe"}}, Dims: []int{2}, Folds: 2}, "method soe given twice"},
		{"dimension twice", s, Config{Methods: soe, Dims: []int{2, 2}, Folds: 2}, "dimension 2 given twice"},
		{"dimension 0", s, Config{Methods: soe, Dims: []int{0, 2}, Folds: 2}, "dimension 0: want d ≥ 1"},
		{"nothing to try", s, Config{Dims: []int{2}, Folds: 2}, "no methods or no dimensions"},
		{"a fit fails", s, Config{Methods: soe, Dims: []int{2}, Folds: 2, Threads: 2, Fit: embed.Options{LearningRate: -1}}, "crossval: soe at d=2, fold "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), tc.s, tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) || res != nil {
				t.Errorf("Run = %v, %v; want no result and an error containing %q", res, err, tc.want)
			}
		})
	}
}
