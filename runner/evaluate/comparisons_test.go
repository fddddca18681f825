package evaluate

import (
	"context"
	"strings"
	"testing"

	_ "github.com/oe-lab/oe/lib/algorithms"
	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/runner/job"
)

func TestComparisonsCheckAndJob(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    Comparisons
		want string // "" for valid
	}{
		{"plain", Comparisons{}, ""},
		{"majority", Comparisons{Votes: datasets.MajorityVote}, ""},
		{"a fold", Comparisons{Folds: 5, Fold: 4}, ""},
		{"fold past the folds", Comparisons{Folds: 5, Fold: 5}, "fold 5 of 5 folds"},
		{"one fold", Comparisons{Folds: 1}, "fold 0 of 1 folds"},
		{"fold without folds", Comparisons{Fold: 2}, "fold 2 of 0 folds"},
		{"unknown votes", Comparisons{Votes: 7}, "unknown construction Votes(7)"},
	} {
		err := tc.x.Check()
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Check() = %v, want %q", tc.name, err, tc.want)
		}
	}
	c, err := job.Config{Dataset: "material", Lambda: 2, Algorithm: "soe", Dim: 2, Seed: 1}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{c.Key: "the plain config"}
	for _, x := range []Comparisons{{}, {Votes: datasets.MajorityVote}, {Folds: 5}, {Folds: 5, Fold: 1}} {
		w, err := x.Job(c)
		if err != nil {
			t.Fatal(err)
		}
		if other, dup := keys[w.Key]; dup {
			t.Errorf("%+v has the key of %s", x, other)
		}
		keys[w.Key] = string(w.JSON)
	}
}

// TestComparisonsRun fits SOE on the material data where its files are
// present: the test error and the authors' measure are those lib/metrics
// gives on the dataset's test answers, and a fold is scored on what it
// holds out.
func TestComparisonsRun(t *testing.T) {
	t.Setenv("OE_OFFLINE", "1")
	cmp, err := datasets.LoadComparisons("material")
	if err != nil {
		t.Skipf("material data not available: %v", err)
	}
	c := job.Config{Dataset: "material", Lambda: 2, Algorithm: "soe", Dim: 2, MaxEpochs: 20, Seed: 1}
	out, err := Comparisons{}.Run(context.Background(), c, 1)
	if err != nil {
		t.Fatal(err)
	}
	test := cmp.Triplets(cmp.Test, datasets.EachVote)
	if got, want := out.Metrics[job.MajorityTestError], metrics.MajorityError(out.Embedding, test); got != want {
		t.Errorf("majority test error %v, lib/metrics says %v", got, want)
	}
	if out.Metrics[job.Triplets] != 92892 || out.Metrics[job.Items] != 100 || out.Metrics[job.TestError] != metrics.TripletError(out.Embedding, test) {
		t.Errorf("metrics %v", out.Metrics)
	}
	fold, err := Comparisons{Folds: 4, Fold: 2}.Run(context.Background(), c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if held := 92892 - fold.Metrics[job.Triplets]; held < 92892/4-2000 || held > 92892/4+2000 {
		t.Errorf("fold 2 of 4 held out %v of 92,892 triplets, want about a quarter", held)
	}
	for _, bad := range []job.Config{
		{Dataset: "material", N: 50, Lambda: 2, Algorithm: "soe", Dim: 2},
		{Dataset: "material", Lambda: 2, Algorithm: "loe", Dim: 2},
	} {
		if _, err := (Comparisons{}).Run(context.Background(), bad, 1); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
