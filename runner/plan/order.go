package plan

import (
	"fmt"
	"slices"

	"github.com/oe-lab/oe/runner"
	"github.com/oe-lab/oe/runner/execute"
)

// Order is how a budget orders the runs it executes (oerun run --order).
type Order string

const (
	// Cheapest executes the cheapest runs first: the most runs for the
	// time (CheapestFirst).
	Cheapest Order = "cheapest"
	// Findings executes first the runs that let the most checks of the
	// paper's findings be judged for their cost (FindingsFirst).
	Findings Order = "findings"
)

// ParseOrder reads an Order; the error names the value and the choices.
func ParseOrder(v string) (Order, error) {
	switch o := Order(v); o {
	case Cheapest, Findings:
		return o, nil
	}
	return "", fmt.Errorf("plan: order %q: want %s or %s", v, Cheapest, Findings)
}

// Sort returns the runs in the order o: Findings orders them by the groups
// the checks await (FindingsFirst), Cheapest by cost alone.
func (o Order) Sort(runs []execute.Pending, awaited []runner.Awaited) []execute.Pending {
	if o == Findings {
		order, _, _ := FindingsFirst(runs, awaited)
		return order
	}
	return CheapestFirst(runs)
}

// Step is one step of FindingsFirst's order: the runs it adds and the
// groups of the checks that they complete.
type Step struct {
	// Runs are the runs the step adds, cheapest first.
	Runs []execute.Pending
	// Completes are the groups whose runs are all in the order once the
	// step's are: a check is judged on each of them once those are stored.
	Completes []runner.Awaited
}

// FindingsFirst orders the runs so that the checks of the paper's findings
// (experiments/reproduction.go) can be judged on as many groups as early as
// the runs' estimated costs allow: a check is judged on a group (a dataset)
// only once every run it compares there is stored, so a run helps a check
// only with all the others of its group, and the cheapest runs first can
// leave every check waiting on the one expensive run of each group. Its
// steps are greedy: each adds the runs missing from the order of the group
// that completes the most groups (its own, and others whose runs it holds)
// for the least estimated cost, cheapest first within it; ties go to the
// cheaper step, then to the group awaited first. The runs no awaited group
// holds come last, cheapest first. A group holding a run that runs lacks (a
// filter left it out, or it runs on another machine's backend) cannot be
// completed from runs: it is left out, and counted in beyond. The order
// depends only on the runs' keys and costs and on awaited.
func FindingsFirst(runs []execute.Pending, awaited []runner.Awaited) (order []execute.Pending, steps []Step, beyond int) {
	byKey := make(map[string]execute.Pending, len(runs))
	for _, r := range runs {
		byKey[r.Job.Key] = r
	}
	// group is an awaited group whose runs are all in runs; left counts
	// those not in the order yet.
	type group struct {
		awaited runner.Awaited
		keys    []string
		left    int
	}
	var groups []*group
	holding := map[string][]*group{}
next:
	for _, a := range awaited {
		keys := slices.Compact(slices.Sorted(slices.Values(a.Keys)))
		for _, k := range keys {
			if _, ok := byKey[k]; !ok {
				beyond++
				continue next
			}
		}
		g := &group{awaited: a, keys: keys, left: len(keys)}
		groups = append(groups, g)
		for _, k := range keys {
			holding[k] = append(holding[k], g)
		}
	}
	ordered := map[string]bool{}
	for {
		var best *group
		var bestCost float64
		bestGain := 0
		for _, g := range groups {
			if g.left == 0 {
				continue
			}
			// The cost of g's runs not in the order yet, and how many groups
			// they complete: those whose runs left are all among them.
			cost, hits := 0.0, map[*group]int{}
			for _, k := range g.keys {
				if ordered[k] {
					continue
				}
				cost += byKey[k].Cost.Seconds()
				for _, h := range holding[k] {
					hits[h]++
				}
			}
			gain := 0
			for h, n := range hits {
				if n == h.left {
					gain++
				}
			}
			// Less cost per group completed: cost/gain < bestCost/bestGain.
			if best == nil || cost*float64(bestGain) < bestCost*float64(gain) ||
				(cost*float64(bestGain) == bestCost*float64(gain) && cost < bestCost) {
				best, bestCost, bestGain = g, cost, gain
			}
		}
		if best == nil {
			break
		}
		var step Step
		for _, k := range best.keys {
			if !ordered[k] {
				step.Runs = append(step.Runs, byKey[k])
			}
		}
		step.Runs = CheapestFirst(step.Runs)
		for _, r := range step.Runs {
			ordered[r.Job.Key] = true
			for _, h := range holding[r.Job.Key] {
				if h.left--; h.left == 0 {
					step.Completes = append(step.Completes, h.awaited)
				}
			}
		}
		order = append(order, step.Runs...)
		steps = append(steps, step)
	}
	var rest []execute.Pending
	for _, r := range runs {
		if !ordered[r.Job.Key] {
			rest = append(rest, r)
		}
	}
	return append(order, CheapestFirst(rest)...), steps, beyond
}

func (o Order) String() string { return string(o) }
