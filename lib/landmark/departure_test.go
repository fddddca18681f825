package landmark

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/internal/testpoints"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

func TestDepartureString(t *testing.T) {
	tests := []struct {
		d    Departure
		want string
	}{
		{0, "none"},
		{Balls, "balls"},
		{TruthRanking | LastPoint, "truth-ranking+last-point"},
		{AuthorsCode, "authors-code"},
		{AuthorsCode &^ FreshSubsets, "truth-ranking+balls+uniform-start+last-point+drop-beyond"},
		{1 << 10, "unknown"},
	}
	for _, tc := range tests {
		if got := tc.d.String(); got != tc.want {
			t.Errorf("Departure(%d).String() = %q, want %q", uint(tc.d), got, tc.want)
		}
	}
	var all Departure
	for _, d := range Departures() {
		all |= d
	}
	if all != AuthorsCode || len(Departures()) != 6 {
		t.Errorf("Departures() = %v, want the six of AuthorsCode", Departures())
	}
}

// TestShellOf checks both ways of placing an item in an anchor's ranking
// against a subset embedded exactly (the embedding is the ground truth):
// they give the same shell, which holds the item, binary search with
// ⌈log₂ m⌉ queries at most and TruthRanking with one per other member; an
// item beyond every member (item n−1 is for all anchors) gets an open
// shell.
func TestShellOf(t *testing.T) {
	const n, m, d = 60, 40, 2
	x := testpoints.Uniform(n, d, 5)
	x.Set(n-1, 0, 100) // far beyond every member
	sub := make([]int, m)
	emb := make([]float64, m*d)
	for s := range sub {
		sub[s] = s
		copy(emb[s*d:], x.RawRowView(s))
	}
	o, err := triplets.NewOracle(x, triplets.Noise{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	search := newInserter(sub, emb, d, DefaultLLOEPhase2LR, DefaultLLOEPhase2Iterations, 0, 1)
	truth := newInserter(sub, emb, d, DefaultLLOEPhase2LR, DefaultLLOEPhase2Iterations, TruthRanking, 1)
	for item := m; item < n; item++ {
		for a := 0; a < m; a += 7 {
			q0 := o.Queries()
			bs := search.shellOf(o.Session(1), a, item)
			q1 := o.Queries()
			ts := truth.shellOf(o.Session(1), a, item)
			q2 := o.Queries()
			if bs != ts {
				t.Fatalf("item %d, anchor %d: binary search %+v, truth %+v", item, a, bs, ts)
			}
			if q1-q0 > int64(math.Ceil(math.Log2(m))) || q2-q1 != m-1 {
				t.Errorf("item %d, anchor %d: %d and %d queries, want ≤ %v and %d", item, a, q1-q0, q2-q1, math.Ceil(math.Log2(m)), m-1)
			}
			r := math.Sqrt(sqDist(x, a, item))
			if !(bs.rIn <= r && r <= bs.rOut) {
				t.Errorf("item %d at %v from anchor %d outside its shell %+v", item, r, a, bs)
			}
			beyond := true
			for b := 0; b < m; b++ {
				beyond = beyond && (b == a || sqDist(x, a, b) < r*r)
			}
			if beyond != math.IsInf(bs.rOut, 1) || item == n-1 && !beyond {
				t.Errorf("item %d, anchor %d: shell %+v; beyond every member: %v", item, a, bs, beyond)
			}
		}
	}
}

// TestReplay fits LLOE with each departure of the authors' code, and with
// all: every fit is reproducible, stays within Budget, and only the balls
// and the uniform start (measured in bench/landmark.md) may cost accuracy:
// the rest keep the test error near ours.
func TestReplay(t *testing.T) {
	const n, d = 400, 2
	x := testpoints.Uniform(n, d, 3)
	test, err := triplets.Random(x, 5000, triplets.Noise{}, 9, 1)
	if err != nil {
		t.Fatal(err)
	}
	fit := func(replay Departure) (float64, *embed.Result) {
		o, err := triplets.NewOracle(x, triplets.Noise{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		res, err := (&LLOE{Replay: replay}).Fit(context.Background(), embed.Problem{Dim: d, Oracle: o}, embed.Options{Seed: 4, MaxEpochs: 100, Threads: 2})
		if err != nil {
			t.Fatalf("%s: %v", replay, err)
		}
		budget, err := (&LLOE{Replay: replay}).Budget(n, d)
		if err != nil || res.Queries > budget {
			t.Errorf("%s: %d queries, budget %d (%v)", replay, res.Queries, budget, err)
		}
		return metrics.TripletError(res.Embedding, test), res
	}
	ours, _ := fit(0)
	for _, replay := range append(Departures(), AuthorsCode) {
		t.Run(replay.String(), func(t *testing.T) {
			te, a := fit(replay)
			_, b := fit(replay)
			if !slices.Equal(a.Embedding.RawMatrix().Data, b.Embedding.RawMatrix().Data) {
				t.Error("two fits with the same seed differ")
			}
			if replay&(Balls|UniformStart) == 0 && te > ours+0.05 {
				t.Errorf("test error %.3f, ours %.3f: a departure other than the balls and the start cost accuracy", te, ours)
			}
			t.Logf("test triplet error %.3f (ours %.3f), %d queries", te, ours, a.Queries)
		})
	}
}

func TestVariantParameter(t *testing.T) {
	tests := []struct {
		variant float64
		want    Departure
		err     string
	}{
		{0, 0, ""},
		{1, AuthorsCode, ""},
		{2, 0, "variant must be 0"},
	}
	for _, tc := range tests {
		alg, err := embed.New("lloe", embed.Params{"variant": tc.variant})
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("variant %v: error %v, want %q", tc.variant, err, tc.err)
			}
		case err != nil:
			t.Errorf("variant %v: %v", tc.variant, err)
		case alg.(*LLOE).Replay != tc.want:
			t.Errorf("variant %v replays %s, want %s", tc.variant, alg.(*LLOE).Replay, tc.want)
		}
	}
	if _, err := (&LLOE{Replay: 1 << 9}).config(); err == nil || !strings.Contains(err.Error(), "unknown departures") {
		t.Errorf("an unknown departure: error %v", err)
	}
}
