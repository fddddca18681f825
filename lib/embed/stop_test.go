package embed

import (
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/triplets"
)

func TestTrackerStopsWhenErrorSettles(t *testing.T) {
	tests := []struct {
		name     string
		rule     StopRule
		errs     []float64
		stopAt   int     // index of the Observe call that returns true; -1: never
		converge float64 // TimeToConverge after the calls (elapsed = call index)
	}{
		{"settles at the third check", DefaultStopRule(), []float64{0.5, 0.2, 0.1, 0.098, 0.05}, 3, 2},
		{"rise counts as change", DefaultStopRule(), []float64{0.1, 0.2, 0.199}, 2, 1},
		{"never settles", DefaultStopRule(), []float64{0.5, 0.4, 0.3, 0.2}, -1, 3},
		{"disabled records but never stops", StopRule{Every: 50, SubsetSize: 10, Threshold: 0.005, Disabled: true},
			[]float64{0.5, 0.5, 0.5}, -1, 0},
	}
	for _, tc := range tests {
		tr := NewTracker(tc.rule.OrDefault())
		got := -1
		for i, e := range tc.errs {
			if tr.Observe(e, float64(i)) {
				got = i
				break
			}
		}
		if got != tc.stopAt {
			t.Errorf("%s: stopped at check %d, want %d", tc.name, got, tc.stopAt)
		}
		if tr.TimeToConverge() != tc.converge {
			t.Errorf("%s: TimeToConverge %v, want %v", tc.name, tr.TimeToConverge(), tc.converge)
		}
	}
}

func TestStopRuleDefaults(t *testing.T) {
	if got := (StopRule{}).OrDefault(); got != DefaultStopRule() {
		t.Errorf("zero rule → %+v", got)
	}
	got := StopRule{Every: 10}.OrDefault()
	if got.Every != 10 || got.SubsetSize != 100_000 || got.Threshold != 0.005 {
		t.Errorf("partial rule → %+v", got)
	}
	tr := NewTracker(DefaultStopRule())
	for epoch, want := range map[int]bool{1: false, 49: false, 50: true, 100: true, 120: false} {
		if tr.Due(epoch) != want {
			t.Errorf("Due(%d) = %v", epoch, !want)
		}
	}
}

func TestProblemCheck(t *testing.T) {
	good := &triplets.Set{N: 4, Idx: []int32{0, 1, 2, 1, 2, 3}}
	tests := []struct {
		name string
		p    Problem
		want string // "" means valid
	}{
		{"valid", Problem{Dim: 2, Train: good}, ""},
		{"zero dim", Problem{Dim: 0, Train: good}, "dimension"},
		{"no triplets", Problem{Dim: 2}, "empty"},
		{"n too small", Problem{N: 3, Dim: 2, Train: good}, "smaller"},
		{"bad index", Problem{Dim: 2, Train: &triplets.Set{N: 4, Idx: []int32{0, 1, 9}}}, "out of range"},
	}
	for _, tc := range tests {
		err := tc.p.Check(true)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if n := (Problem{Train: good}).Items(); n != 4 {
		t.Errorf("Items() = %d, want 4 from the set", n)
	}
}

func TestResultRecord(t *testing.T) {
	var res Result
	var seen []int
	res.Record(Epoch{Epoch: 1, Loss: 2}, nil)
	res.Record(Epoch{Epoch: 2, Loss: 1}, func(e Epoch) { seen = append(seen, e.Epoch) })
	if res.Epochs != 2 || len(res.Trace) != 2 || res.Trace[1].Loss != 1 {
		t.Fatalf("after two records: Epochs %d, trace %v", res.Epochs, res.Trace)
	}
	if len(seen) != 1 || seen[0] != 2 {
		t.Fatalf("progress saw %v, want [2]", seen)
	}
}

// TestResumeTracker: a tracker resumed from another's state at any check
// decides the later checks as the original does, and reports the same time
// to converge.
func TestResumeTracker(t *testing.T) {
	rule := StopRule{Every: 1, SubsetSize: 1, Threshold: 0.01}
	errs := []float64{0.5, 0.3, 0.25, 0.22, 0.2, 0.199} // stops at the last check
	for cut := 1; cut < len(errs); cut++ {
		orig, resumed := NewTracker(rule), (*Tracker)(nil)
		for i, e := range errs {
			if i == cut {
				resumed = ResumeTracker(rule, orig.State())
			}
			stop := orig.Observe(e, float64(i))
			if resumed != nil {
				if got := resumed.Observe(e, float64(i)); got != stop {
					t.Errorf("resumed before check %d: stop %v at check %d, the original %v", cut, got, i, stop)
				}
			}
			if stop {
				break
			}
		}
		if resumed.TimeToConverge() != orig.TimeToConverge() {
			t.Errorf("resumed before check %d: time to converge %v, the original's %v", cut, resumed.TimeToConverge(), orig.TimeToConverge())
		}
	}
}
