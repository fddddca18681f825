package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// reproductionScript checks the paper's findings on the runs of the other
// scripts: the checks that --order findings orders runs by.
const reproductionScript = "../../experiments/reproduction.go"

// TestPlanOrderFindings: with --order findings, plan lists first the runs
// that let reproduction.go's checks be judged, step by step, and says what
// each step lets be judged; a budget says how its runs are ordered.
func TestPlanOrderFindings(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "none.db")
	stdout, stderr, code := cli(t, "plan", "--profile", "smoke", "--db", db, "--order", "findings", "--json", cheapScript, reproductionScript)
	var got planJSON
	if code != 0 || json.Unmarshal([]byte(stdout), &got) != nil {
		t.Fatalf("plan --order findings --json: exit %d, %s\n%s", code, stderr, stdout)
	}
	if len(got.Steps) == 0 {
		t.Fatalf("no steps: the smoke profile's runs are all missing, so every check awaits some")
	}
	// The runs come in the steps' order: each step's cost is that of its
	// runs, the next ones in the list.
	at := 0
	for i, s := range got.Steps {
		if s.Runs == 0 || len(s.Completes) == 0 || s.Completes[0].Check == "" || s.Completes[0].Group == "" {
			t.Fatalf("step %d: %+v: want runs, and the checks and groups they let be judged", i+1, s)
		}
		if at+s.Runs > len(got.Runs) {
			t.Fatalf("step %d runs past the %d runs listed", i+1, len(got.Runs))
		}
		var cost float64
		for _, r := range got.Runs[at : at+s.Runs] {
			cost += r.CostSeconds
		}
		if math.Abs(cost-s.CostSeconds) > 1e-9*math.Max(1, cost) {
			t.Errorf("step %d costs %g s, but the %d runs listed at %d cost %g s", i+1, s.CostSeconds, s.Runs, at, cost)
		}
		at += s.Runs
	}
	stdout, stderr, code = cli(t, "plan", "--profile", "smoke", "--db", db, "--order", "findings", cheapScript, reproductionScript)
	for _, want := range []string{"\nfindings first: the first ", "\nstep  runs  estimate  by then  lets be judged\n1  "} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("plan --order findings lacks %q: exit %d, %s\n%s", want, code, stderr, stdout)
		}
	}
	if _, stderr, code := cli(t, "plan", "--order", "fastest", cheapScript); code != 1 || !strings.Contains(stderr, `order "fastest": want cheapest or findings`) {
		t.Errorf("plan --order fastest: exit %d, %s", code, stderr)
	}
	if _, stderr, code := cli(t, "run", "--order", "findings", "--db", db, cheapScript); code != 1 || !strings.Contains(stderr, "--order findings orders the runs of --budget") {
		t.Errorf("run --order findings without --budget: exit %d, %s", code, stderr)
	}
	_, stderr, code = cli(t, "run", "--profile", "smoke", "--budget", "0", "--order", "findings", "--db", db, "--reports", filepath.Join(dir, "reports"), cheapScript, reproductionScript)
	if code != 0 || !strings.Contains(stderr, "budget 0s: ordered by findings: the first ") {
		t.Errorf("run --budget 0 --order findings: exit %d, want the order said:\n%s", code, stderr)
	}
}
