package exp

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
)

// Facts of the paper that scripts use: its methods and their families, the
// datasets' sizes, the item limit of the Gram-matrix methods, and its
// Table 3. Each is held once, in lib/datasets (sizes), the algorithm
// registry of lib/embed (families, limits) or here (the order and the
// numbers of Table 3).

// tableOrder lists the paper's methods, by their registry names, in the
// order of its Table 3.
var tableOrder = []string{"soe", "oenn", "ste", "tste", "cklx", "loe", "lloe", "gnmds", "forte", "ckl"}

// Family is what a method optimises (lib/embed).
type Family = embed.Family

// Families of the paper's methods.
const (
	FamilyEmbedding = embed.FamilyEmbedding // SOE, STE, t-STE, CKL-x
	FamilyGram      = embed.FamilyGram      // GNMDS, CKL, FORTE
	FamilyLandmark  = embed.FamilyLandmark  // LOE, LLOE
	FamilyNeural    = embed.FamilyNeural    // OENN
)

// Algorithms returns the paper's methods in the order of its Table 3: all
// ten, or those of the given families. A method this build does not
// register belongs to no family; Run skips its runs with a note.
func Algorithms(families ...Family) []string {
	if len(families) == 0 {
		return slices.Clone(tableOrder)
	}
	var out []string
	for _, a := range tableOrder {
		if info, err := embed.Lookup(a); err == nil && slices.Contains(families, info.Family) {
			out = append(out, a)
		}
	}
	return out
}

// Factored returns the method that minimises a Gram-matrix method's
// objective over the embedding X (lib/embed's Info.Factored: cklx for ckl,
// gnmdsx for gnmds, ste for forte), or "" for a method that has none or is
// not registered in this build.
func Factored(algorithm string) string {
	info, err := embed.Lookup(algorithm)
	if err != nil {
		return ""
	}
	return info.Factored
}

// PassiveAlgorithms returns the paper's methods that learn from a fixed
// set of triplets (all but the active LOE and LLOE), in Table 3's order.
func PassiveAlgorithms() []string {
	var out []string
	for _, a := range tableOrder {
		if info, err := embed.Lookup(a); err == nil && !info.Active {
			out = append(out, a)
		}
	}
	return out
}

// PaperN returns the number of items the paper's experiments use of a
// dataset by default (lib/datasets' Spec.N): what a Run with N = 0 loads.
// An unknown dataset is a mistake in the script.
func PaperN(dataset string) int {
	spec, err := datasets.Lookup(dataset)
	if err != nil {
		panic(err)
	}
	return spec.N
}

// MaxItems returns the most items a dataset can give a run: the points its
// files hold (lib/datasets' Spec.Available), or 0 for a synthetic set, which
// generates any number. An unknown dataset is a mistake in the script.
func MaxItems(dataset string) int {
	spec, err := datasets.Lookup(dataset)
	if err != nil {
		panic(err)
	}
	if spec.Synthetic {
		return 0
	}
	return spec.Available
}

// Items returns the number of items the run declares: N, or the paper's
// size of its dataset when N is 0.
func (r Run) Items() int {
	if r.N > 0 {
		return r.N
	}
	return PaperN(r.Dataset)
}

// PaperExcludes reports whether the paper leaves the run's method out at
// the run's number of items: the Gram-matrix methods above 10,000 items
// (lib/embed's Info.PaperMaxItems).
func PaperExcludes(r Run) bool {
	info, err := embed.Lookup(r.Algorithm)
	return err == nil && info.PaperMaxItems > 0 && r.Items() > info.PaperMaxItems
}

// WithinPaperLimits returns the runs the paper would run (see
// PaperExcludes), in order, and notes in the report which it left out.
func (e *Experiment) WithinPaperLimits(runs []Run) []Run {
	var kept []Run
	left := map[string]int{}
	for _, r := range runs {
		if PaperExcludes(r) {
			info, _ := embed.Lookup(r.Algorithm)
			left[fmt.Sprintf("%s on more than %d items", r.Algorithm, info.PaperMaxItems)]++
			continue
		}
		kept = append(kept, r)
	}
	if len(left) > 0 {
		parts := make([]string, 0, len(left))
		for _, what := range sortedKeys(left) {
			parts = append(parts, fmt.Sprintf("%s (%d runs)", what, left[what]))
		}
		e.Note("Runs that the paper leaves out (for memory) were not declared: " + strings.Join(parts, ", ") + ".")
	}
	return kept
}

// Table3 is the paper's Table 3 ("Detailed results of the general
// experiments"): the test triplet error, kNN error and running time of each
// method on each dataset, as the paper prints them.
type Table3 struct {
	tsv *TSV
}

// Table3Cell is one method on one dataset in Table 3, as printed: "" when
// the table has no such row, "-" where the paper did not run the method
// (the Gram-matrix methods above 10,000 items).
type Table3Cell struct {
	TestError, KNNError, Seconds string
}

// ReadTable3 reads Table 3 from a tab-separated file with the columns
// algorithm, dataset, test_triplet_error, knn_error and time_seconds
// (experiments/data/table3_general.tsv). Its names are the paper's (SOE,
// tSTE, CKLx, MNIST, ...); they match the registry's and lib/datasets'
// names case-insensitively.
func ReadTable3(path string) (Table3, error) {
	tsv, err := readTSV(path)
	if err != nil {
		return Table3{}, err
	}
	for _, col := range []string{"algorithm", "dataset", "test_triplet_error", "knn_error", "time_seconds"} {
		if !slices.Contains(tsv.Header, col) {
			return Table3{}, fmt.Errorf("exp: %s has no column %q (columns: %s)", path, col, strings.Join(tsv.Header, ", "))
		}
	}
	return Table3{tsv}, nil
}

// Table3 reads the paper's Table 3 from data/table3_general.tsv beside the
// script.
func (e *Experiment) Table3() Table3 {
	t, err := ReadTable3(e.File("data/table3_general.tsv"))
	if err != nil {
		panic(err)
	}
	return t
}

// Cell returns the paper's numbers for an algorithm and a dataset (names
// compared case-insensitively).
func (t Table3) Cell(algorithm, dataset string) Table3Cell {
	get := func(col string) string { return t.tsv.Get(col, "algorithm", algorithm, "dataset", dataset) }
	return Table3Cell{TestError: get("test_triplet_error"), KNNError: get("knn_error"), Seconds: get("time_seconds")}
}

// BesideTable3 sets the results next to Table 3: a row per dataset of the
// results and method of the paper (Table 3's order) that has runs or a row
// in the table, with our test error, kNN error and time until convergence
// (mean ± sd over repetitions) beside the paper's, and the differences of
// the errors (our mean minus the paper's number, "—" where either is
// missing). Times are on different machines and sizes and get no
// difference.
func (rs Results) BesideTable3(t Table3) *Table {
	out := NewTable("dataset", "algorithm", "test error (ours)", "test error (paper)", "Δ test error", "kNN error (ours)", "kNN error (paper)", "Δ kNN error", "time (ours, CPU)", "time (paper, GPU)")
	for _, ds := range rs.Distinct("dataset") {
		sub := rs.Where("dataset", ds)
		for _, a := range Algorithms() {
			s := sub.Where("algorithm", a)
			p := t.Cell(a, sub[0].Run.Dataset)
			if len(s) == 0 && p.TestError == "" {
				continue
			}
			secs := dash(p.Seconds)
			if secs != "—" {
				secs += " s"
			}
			out.Row(ds, a, s.Cell(TestError), dash(p.TestError), difference(s.Mean(TestError), p.TestError),
				s.Cell(KNNError), dash(p.KNNError), difference(s.Mean(KNNError), p.KNNError), s.Cell(ConvergeSeconds), secs)
		}
	}
	return out
}

// difference prints ours − paper with its sign and three decimals, e.g.
// "+0.012"; "—" when either has no number.
func difference(ours float64, paper string) string {
	v, err := strconv.ParseFloat(paper, 64)
	if err != nil || math.IsNaN(ours) {
		return "—"
	}
	d := math.Round((ours-v)*1000) / 1000
	if d == 0 {
		d = 0 // no "-0.000"
	}
	return fmt.Sprintf("%+.3f", d)
}

// dash prints a cell of Table 3: "—" where it has no number.
func dash(s string) string {
	if s == "" || s == "-" {
		return "—"
	}
	return s
}
