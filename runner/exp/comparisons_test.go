package exp

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestChooseDims(t *testing.T) {
	// Three folds at d = 1, 2, 3 (errors by hand): soe's best is d = 3,
	// mean 0.20 with SD 0.03, SE 0.0173, so d = 2 (0.21) lies within one
	// SE; ste's d = 1 is best.
	fold := func(alg string, dim int, errs ...float64) Results {
		var rs Results
		for _, e := range errs {
			rs = append(rs, ok(Run{Dataset: "material", Algorithm: alg, Dim: dim}, map[string]float64{TestError: e, FitSeconds: 1}))
		}
		return rs
	}
	var rs Results
	rs = append(rs, fold("soe", 1, 0.30, 0.31, 0.29)...)
	rs = append(rs, fold("soe", 2, 0.21, 0.21, 0.21)...)
	rs = append(rs, fold("soe", 3, 0.17, 0.20, 0.23)...)
	rs = append(rs, fold("ste", 2, 0.25, 0.25, 0.25)...)
	rs = append(rs, fold("ste", 1, 0.22, 0.22, 0.22)...)
	got := rs.ChooseDims()
	if len(got) != 2 || got[0].Algorithm != "soe" || got[0].Best != 3 || got[0].OneSE != 2 || got[1].Best != 1 || got[1].OneSE != 1 {
		t.Errorf("ChooseDims = %+v", got)
	}
	if m := got[0].Mean; m < 0.2-1e-12 || m > 0.2+1e-12 {
		t.Errorf("soe's mean at its best d = %v, want 0.2", m)
	}
	missing := append(rs[:3:3], Result{Run: Run{Dataset: "material", Algorithm: "soe", Dim: 1}, Status: Missing})
	if got := missing.ChooseDims(); len(got) != 0 {
		t.Errorf("a d with a missing fold gave a choice: %+v", got)
	}
}

func TestBesidePeers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "peers.tsv")
	os.WriteFile(path, []byte("# comment\nlibrary\talgorithm\tmajority_train_error\tmajority_test_error\tcpu_time_s\n"+
		"A\tSOE\t0.1\t0.133\t1.8\nB\tSOE\t0.1\t0.132\t4.4\nA\tSTE\t0.4\t0.486\t0.5\nC\tCKL\t0.1\t0.137\t59.7\n"), 0o644)
	tsv, err := readTSV(path)
	if err != nil {
		t.Fatal(err)
	}
	peers := Peers{tsv}
	run := func(alg string, dim int, maj, secs float64) Result {
		return ok(Run{Dataset: "material", Algorithm: alg, Dim: dim}, map[string]float64{MajorityTestError: maj, FitSeconds: secs})
	}
	rs := Results{run("soe", 2, 0.134, 0.2), run("soe", 5, 0.131, 0.3), run("cklx", 2, 0.153, 0.6), run("oenn", 2, 0.141, 5), run("gnmds", 2, 0.23, 0.6)}
	got := rs.BesidePeers(peers).Rows
	want := [][]string{
		// Best SOE 0.132 (B): target 0.142; peers within 0.01 of 0.134: all but STE, fastest A SOE 1.8 s.
		{"soe", "2", "0.134", "0.132 (B SOE)", "≤ 0.142", "PASS", "0.20 s", "A SOE: 0.133 in 1.80 s", "PASS"},
		{"soe", "5", "0.131", "0.132 (B SOE)", "—", "—", "0.30 s", "A SOE: 0.133 in 1.80 s", "PASS"},
		// CKL-x against CKL 0.137: target 0.147.
		{"cklx", "2", "0.153", "0.137 (C CKL)", "≤ 0.147", "FAIL", "0.60 s", "—", "—"},
		// OENN against the best of any method, 0.132.
		{"oenn", "2", "0.141", "0.132 (B SOE)", "≤ 0.142", "PASS", "5.00 s", "A SOE: 0.133 in 1.80 s", "FAIL"},
		{"gnmds", "2", "0.230", "—", "Gram methods' issue", "—", "0.60 s", "—", "—"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("BesidePeers rows:\n%q\nwant\n%q", got, want)
	}
}
