package exp

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	_ "github.com/oe-lab/oe/lib/algorithms" // the registry the paper's lists come from
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/report"
)

func TestAlgorithms(t *testing.T) {
	// Table 3 lists the methods in this order; the paper's "Ordinal
	// Embedding Approaches" section groups them.
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"all, Table 3's order", Algorithms(), []string{"soe", "oenn", "ste", "tste", "cklx", "loe", "lloe", "gnmds", "forte", "ckl"}},
		{"passive", PassiveAlgorithms(), []string{"soe", "oenn", "ste", "tste", "cklx", "gnmds", "forte", "ckl"}},
		{"Gram matrix", Algorithms(FamilyGram), []string{"gnmds", "forte", "ckl"}},
		{"over the embedding", Algorithms(FamilyEmbedding), []string{"soe", "ste", "tste", "cklx"}},
		{"landmark and neural", Algorithms(FamilyLandmark, FamilyNeural), []string{"oenn", "loe", "lloe"}},
	}
	for _, tc := range tests {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	// Every registered method is one of the paper's or the factored form of
	// a Gram-matrix method, once.
	all := Algorithms()
	for _, a := range Algorithms(FamilyGram) {
		if f := Factored(a); f == "" {
			t.Errorf("%s has no factored form", a)
		} else if !slices.Contains(all, f) {
			all = append(all, f)
		}
	}
	sorted := slices.Sorted(slices.Values(all))
	if names := embed.Names(); !reflect.DeepEqual(sorted, names) {
		t.Errorf("the paper's methods and factored forms %v, the registry's %v", sorted, names)
	}
	if got := [4]string{Factored("ckl"), Factored("gnmds"), Factored("forte"), Factored("soe")}; got != [4]string{"cklx", "gnmdsx", "ste", ""} {
		t.Errorf("factored forms of ckl, gnmds, forte, soe: %q", got)
	}
}

func TestPaperN(t *testing.T) {
	// The paper's sizes: its dataset descriptions and Table 2 (n in
	// thousands) of the supplement.
	tests := []struct {
		dataset string
		want    int
	}{
		{"char", 1797}, {"usps", 7291}, {"mnist", 60000}, {"fmnist", 60000}, {"kmnist", 60000},
		{"covtype", 581012}, {"birch1", 10000}, {"worms", 105600}, {"aggregation", 788},
		{"gmm", 5000}, {"uniform", 10000}, {"CHAR", 1797},
	}
	for _, tc := range tests {
		if got := PaperN(tc.dataset); got != tc.want {
			t.Errorf("PaperN(%s) = %d, want %d", tc.dataset, got, tc.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("an unknown dataset did not panic")
		}
	}()
	PaperN("nope")
}

func TestMaxItems(t *testing.T) {
	// What the files hold (MANIFEST.md of the shared data; USPS: its train
	// and test files, 7,291 + 2,007); synthetic sets have no limit.
	tests := []struct {
		dataset string
		want    int
	}{
		{"char", 1797}, {"usps", 9298}, {"birch1", 100000}, {"aggregation", 788}, {"uniform", 0}, {"gmm", 0},
	}
	for _, tc := range tests {
		if got := MaxItems(tc.dataset); got != tc.want {
			t.Errorf("MaxItems(%s) = %d, want %d", tc.dataset, got, tc.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("an unknown dataset did not panic")
		}
	}()
	MaxItems("nope")
}

func TestPaperExcludes(t *testing.T) {
	// The paper leaves the Gram-matrix methods out "on datasets over
	// 10,000 items" (Section 4.2).
	tests := []struct {
		name string
		run  Run
		want bool
	}{
		{"GNMDS on CHAR", Run{Dataset: "char", Algorithm: "gnmds"}, false},
		{"GNMDS on MNIST", Run{Dataset: "mnist", Algorithm: "gnmds"}, true},
		{"FORTE on 10,000 uniform points", Run{Dataset: "uniform", Algorithm: "forte"}, false},
		{"CKL on 10,001 points", Run{Dataset: "uniform", N: 10001, Algorithm: "ckl"}, true},
		{"CKL on a subsample of MNIST", Run{Dataset: "mnist", N: 400, Algorithm: "ckl"}, false},
		{"SOE on MNIST", Run{Dataset: "mnist", Algorithm: "soe"}, false},
		{"an unregistered method", Run{Dataset: "mnist", Algorithm: "nope"}, false},
	}
	for _, tc := range tests {
		if got := PaperExcludes(tc.run); got != tc.want {
			t.Errorf("%s: PaperExcludes = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestWithinPaperLimits(t *testing.T) {
	e := &Experiment{doc: &report.Doc{}}
	runs := []Run{
		{Dataset: "mnist", Algorithm: "soe"}, {Dataset: "mnist", Algorithm: "gnmds"},
		{Dataset: "char", Algorithm: "gnmds"}, {Dataset: "covtype", Algorithm: "gnmds"}, {Dataset: "mnist", Algorithm: "ckl"},
	}
	got := e.WithinPaperLimits(runs)
	if want := []Run{runs[0], runs[2]}; !reflect.DeepEqual(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
	want := "Runs that the paper leaves out (for memory) were not declared: ckl on more than 10000 items (1 runs), gnmds on more than 10000 items (2 runs)."
	if len(e.doc.Notes) != 1 || e.doc.Notes[0] != want {
		t.Errorf("notes %q, want %q", e.doc.Notes, want)
	}
}

func TestTable3(t *testing.T) {
	// The repository's copy of the paper's Table 3.
	tab, err := ReadTable3(filepath.Join("..", "..", "experiments", "data", "table3_general.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		algorithm, dataset string
		want               Table3Cell
	}{
		{"soe", "char", Table3Cell{"0.03", "0.03", "6"}},
		{"tste", "mnist", Table3Cell{"0.2", "0.24", "1770"}}, // tSTE in the table; 29.5 min
		{"CKLX", "Uniform", Table3Cell{"0.11", "0.0", "34"}},
		{"gnmds", "mnist", Table3Cell{}}, // not run above 10,000 items: no row
		{"soe", "kmnist", Table3Cell{}},  // not in the table
	}
	for _, tc := range tests {
		if got := tab.Cell(tc.algorithm, tc.dataset); got != tc.want {
			t.Errorf("Cell(%s, %s) = %+v, want %+v", tc.algorithm, tc.dataset, got, tc.want)
		}
	}
	dir := t.TempDir()
	bad := []struct {
		name, text, want string
	}{
		{"missing column", "algorithm\tdataset\ttest_triplet_error\tknn_error\nSOE\tCHAR\t0.03\t0.03\n", `has no column "time_seconds"`},
		{"ragged row", "algorithm\tdataset\ttest_triplet_error\tknn_error\ttime_seconds\n# note\nSOE\tCHAR\t0.03\n", "bad.tsv:3: 3 cells, the header has 5"},
		{"no file", "", "no such file"},
	}
	for _, tc := range bad {
		path := filepath.Join(dir, "bad.tsv")
		os.Remove(path)
		if tc.text != "" {
			os.WriteFile(path, []byte(tc.text), 0o644)
		}
		if _, err := ReadTable3(path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

func TestBesideTable3(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t3.tsv")
	os.WriteFile(path, []byte("algorithm\tdataset\ttest_triplet_error\tknn_error\ttime_seconds\n"+
		"SOE\tCHAR\t0.03\t0.03\t6\nSOE\tUSPS\t0.02\t0.04\t61\nGNMDS\tMNIST\t-\t-\t-\nSOE\tMNIST\t0.03\t0.04\t672\n"), 0o644)
	tab, err := ReadTable3(path)
	if err != nil {
		t.Fatal(err)
	}
	rs := Results{
		withTestError("soe", "char", 0.05),
		withTestError("soe", "usps", 0.0199), // 0.02 in the table: no "-0.000"

		{Run: Run{Dataset: "mnist", Algorithm: "soe"}, Used: "fmnist", Status: OK, Metrics: map[string]float64{TestError: 0.1, KNNError: 0.2}},
	}
	want := &Table{
		Header: []string{"dataset", "algorithm", "test error (ours)", "test error (paper)", "Δ test error",
			"kNN error (ours)", "kNN error (paper)", "Δ kNN error", "time (ours, CPU)", "time (paper, GPU)"},
		Rows: [][]string{
			{"char", "soe", "0.050", "0.03", "+0.020", "—", "0.03", "—", "—", "6 s"},
			{"usps", "soe", "0.020", "0.02", "+0.000", "—", "0.04", "—", "—", "61 s"},
			{"mnist (fmnist)", "soe", "0.100", "0.03", "+0.070", "0.200", "0.04", "+0.160", "—", "672 s"},
			{"mnist (fmnist)", "gnmds", "—", "—", "—", "—", "—", "—", "—", "—"},
		},
	}
	if got := rs.BesideTable3(tab); !reflect.DeepEqual(got, want) {
		t.Errorf("BesideTable3 =\n%v\nwant\n%v", got, want)
	}
}

func ExamplePaperExcludes() {
	for _, r := range []Run{{Dataset: "usps", Algorithm: "gnmds"}, {Dataset: "mnist", Algorithm: "gnmds"}, {Dataset: "mnist", N: 5000, Algorithm: "gnmds"}} {
		fmt.Printf("%s on %d items of %s: excluded %v\n", r.Algorithm, r.Items(), r.Dataset, PaperExcludes(r))
	}
	// Output:
	// gnmds on 7291 items of usps: excluded false
	// gnmds on 60000 items of mnist: excluded true
	// gnmds on 5000 items of mnist: excluded false
}

func TestOnBackend(t *testing.T) {
	all := Algorithms()
	if got := OnBackend(all, "cpu"); !slices.Equal(got, all) {
		t.Errorf("OnBackend(cpu) = %v, want all of %v", got, all)
	}
	// The methods with a cuda implementation, in Table 3's order, whether or
	// not a GPU answers here.
	want := []string{"soe", "oenn", "ste", "tste", "cklx"}
	for _, b := range []string{"gpu", "cuda"} {
		if got := OnBackend(all, b); !slices.Equal(got, want) {
			t.Errorf("OnBackend(%s) = %v, want %v", b, got, want)
		}
	}
	if got := OnBackend([]string{"nosuchmethod", "soe"}, "gpu"); !slices.Equal(got, []string{"soe"}) {
		t.Errorf("an unknown method: %v", got)
	}
}
