package plan

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oe-lab/oe/runner"
	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/job"
)

// named returns runs keyed by name, with costs in seconds.
func named(costs map[string]int) []execute.Pending {
	var out []execute.Pending
	for _, k := range slices.Sorted(maps.Keys(costs)) {
		out = append(out, execute.Pending{Job: job.Canonical{Key: k}, Cost: time.Duration(costs[k]) * time.Second})
	}
	return out
}

func TestFindingsFirst(t *testing.T) {
	runs := named(map[string]int{"a": 10, "b": 10, "c": 8, "d": 1, "e": 100, "f": 2})
	group := func(name string, keys ...string) runner.Awaited {
		return runner.Awaited{Check: "check", Group: name, Keys: keys}
	}
	tests := []struct {
		name      string
		awaited   []runner.Awaited
		wantOrder string
		// wantSteps lists each step's runs and the groups it completes.
		wantSteps  []string
		wantBeyond int
	}{
		{"no check: cheapest first", nil, "d f c a b e", nil, 0},
		// {a, b} costs 20 s and completes three groups (its own, {a}
		// and {b}): 6.7 s a group, less than {c, d}'s 9 s for one.
		{"the most groups for the cost", []runner.Awaited{group("slow", "e"), group("ab", "a", "b"), group("a", "a"), group("cd", "c", "d"), group("b", "b")},
			"a b d c e f", []string{"a b: a ab b", "d c: cd", "e: slow"}, 0},
		// Alone, {a} and {a, b} cost 10 s a group each (a completes one
		// group, a and b two): the cheaper step first.
		{"ties go to the cheaper step", []runner.Awaited{group("ab", "a", "b"), group("a", "a")},
			"a b d f c e", []string{"a: a", "b: ab"}, 0},
		// The one expensive run of a group holds its check back: the
		// group's cheap runs come with it, not before.
		{"a group's runs together", []runner.Awaited{group("ef", "e", "f"), group("cd", "c", "d")},
			"d c f e a b", []string{"d c: cd", "f e: ef"}, 0},
		{"a group with a run not planned is left out", []runner.Awaited{group("x", "a", "x"), group("d", "d")},
			"d f c a b e", []string{"d: d"}, 1},
		{"a key twice in a group counts once", []runner.Awaited{group("cc", "c", "c")},
			"c d f a b e", []string{"c: cc"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			order, steps, beyond := FindingsFirst(runs, tc.awaited)
			if got := strings.Join(keys(order), " "); got != tc.wantOrder {
				t.Errorf("order %s, want %s", got, tc.wantOrder)
			}
			var got []string
			for _, s := range steps {
				var groups []string
				for _, a := range s.Completes {
					groups = append(groups, a.Group)
				}
				got = append(got, strings.Join(keys(s.Runs), " ")+": "+strings.Join(groups, " "))
			}
			if !slices.Equal(got, tc.wantSteps) {
				t.Errorf("steps %q, want %q", got, tc.wantSteps)
			}
			if beyond != tc.wantBeyond {
				t.Errorf("%d groups beyond the runs, want %d", beyond, tc.wantBeyond)
			}
			if len(order) != len(runs) {
				t.Errorf("%d runs ordered, want all %d", len(order), len(runs))
			}
		})
	}
}

func TestOrderSort(t *testing.T) {
	runs := named(map[string]int{"a": 3, "b": 1, "c": 2})
	awaited := []runner.Awaited{{Check: "check", Group: "a", Keys: []string{"a"}}}
	for _, tc := range []struct {
		order Order
		want  string
	}{{Cheapest, "b c a"}, {Findings, "a b c"}} {
		if got := strings.Join(keys(tc.order.Sort(runs, awaited)), " "); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.order, got, tc.want)
		}
	}
}

func TestParseOrder(t *testing.T) {
	for _, v := range []string{"cheapest", "findings"} {
		if o, err := ParseOrder(v); err != nil || o.String() != v {
			t.Errorf("ParseOrder(%q) = %q, %v", v, o, err)
		}
	}
	if _, err := ParseOrder("fastest"); err == nil || !strings.Contains(err.Error(), `"fastest"`) {
		t.Errorf("ParseOrder(fastest): %v, want an error naming the value", err)
	}
}

func ExampleFindingsFirst() {
	var runs []execute.Pending
	for _, r := range []struct {
		key  string
		secs int
	}{{"soe", 1}, {"ste", 2}, {"oenn", 60}, {"lloe", 3}} {
		runs = append(runs, execute.Pending{Job: job.Canonical{Key: r.key}, Cost: time.Duration(r.secs) * time.Second})
	}
	// A check compares SOE and OENN on one dataset: it waits for both.
	awaited := []runner.Awaited{{Check: "4.7: OENN is slower than SOE", Group: "uniform", Keys: []string{"soe", "oenn"}}}
	order, steps, _ := FindingsFirst(runs, awaited)
	fmt.Println(strings.Join(keys(order), " "))
	fmt.Println(len(steps[0].Runs), "runs complete", steps[0].Completes[0].Check, "on", steps[0].Completes[0].Group)
	// Output:
	// soe oenn ste lloe
	// 2 runs complete 4.7: OENN is slower than SOE on uniform
}
