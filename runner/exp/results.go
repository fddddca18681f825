package exp

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/plot"
	"github.com/oe-lab/oe/runner/job"
)

// Metrics a Result carries (see Result.Value).
const (
	TrainError      = job.TrainError      // triplet error on the training triplets
	TestError       = job.TestError       // triplet error on 10,000 fresh noiseless triplets
	Procrustes      = job.Procrustes      // Procrustes disparity to the ground truth
	KNNError        = job.KNNError        // kNN classification error on the embedding
	KNNErrorData    = job.KNNErrorData    // kNN classification error on the original data
	FitSeconds      = job.FitSeconds      // wall time of the fit
	ConvergeSeconds = job.ConvergeSeconds // the paper's running time (until convergence)
	Epochs          = job.Epochs          // epochs run
	Triplets        = job.Triplets        // training triplets
	Queries         = job.Queries         // oracle queries of an active method
	Items           = job.Items           // items embedded (training items of an Extension run)
)

// Metrics of an Extension run besides the above, which there measure
// OENN_train on the training items (see runner/job).
const (
	ExtensionError        = job.ExtensionError        // the paper's TE: extension triplets violated
	ExtensionTestError    = job.ExtensionTestError    // the same on fresh noiseless triplets
	ExtensionKNNError     = job.ExtensionKNNError     // new items classified by training items, embedding
	ExtensionKNNErrorData = job.ExtensionKNNErrorData // the same on the data
	ExtensionProcrustes   = job.ExtensionProcrustes   // Procrustes disparity of all items
	ExtensionSeconds      = job.ExtensionSeconds      // wall time of the extension's fit
	ExtensionEpochs       = job.ExtensionEpochs       // epochs of the extension's fit
	ExtensionItems        = job.ExtensionItems        // new items
	ExtensionTriplets     = job.ExtensionTriplets     // the extension's training triplets
)

// Statuses of a Result.
const (
	OK      = "ok"      // the run finished; its metrics are set
	Failed  = "failed"  // the run failed; Error says why
	Missing = "missing" // not in the run cache (oerun report before oerun run)
)

// Result is one declared run and what the cache holds for it.
type Result struct {
	// Run is the run as declared (Dataset is the declared name).
	Run Run
	// Used is the dataset actually loaded: Run.Dataset or its stand-in.
	Used string
	// Key is the run's cache key in results.db.
	Key string
	// Status is OK, Failed or Missing; Error is a failure's reason.
	Status string
	Error  string
	// Metrics holds every number the run measured (see the metric names).
	Metrics map[string]float64
	// StopReason says why the fit stopped.
	StopReason string
	// Trace is the per-epoch trace of the fit.
	Trace []embed.Epoch

	// embedding is the stored embedding, or its view when view is set
	// (KeepView), and labels the classes of its rows.
	embedding *mat.Dense
	labels    []int
	view      bool
	// estimate is what a missing run is estimated to cost here (0 where
	// the execution has no cost model).
	estimate time.Duration
}

// Value returns a metric of an OK run, NaN otherwise. An unknown metric name
// is a mistake in the script and panics.
func (r Result) Value(metric string) float64 {
	if r.Status != OK {
		return math.NaN()
	}
	v, ok := r.Metrics[metric]
	if !ok {
		Label(metric) // panics for an unknown metric
		return math.NaN()
	}
	return v
}

var metricNames = []string{TrainError, TestError, Procrustes, KNNError, KNNErrorData, FitSeconds, ConvergeSeconds, Epochs, Triplets, Queries, Items, MajorityTestError,
	ExtensionError, ExtensionTestError, ExtensionKNNError, ExtensionKNNErrorData, ExtensionProcrustes, ExtensionSeconds, ExtensionEpochs, ExtensionItems, ExtensionTriplets}

// metricLabels name the metrics in figures and tables.
var metricLabels = map[string]string{
	TrainError: "train triplet error", TestError: "test triplet error", Procrustes: "Procrustes disparity",
	KNNError: "kNN error", KNNErrorData: "kNN error on the data", FitSeconds: "wall time of the fit (s)",
	ConvergeSeconds: "time until convergence (s)", Epochs: "epochs", Triplets: "training triplets",
	Queries: "oracle queries", Items: "items", MajorityTestError: "majority test error",
	ExtensionError: "extension triplet error", ExtensionTestError: "extension test triplet error",
	ExtensionKNNError: "kNN error of the new items", ExtensionKNNErrorData: "kNN error of the new items on the data",
	ExtensionProcrustes: "Procrustes disparity of all items", ExtensionSeconds: "wall time of the extension (s)",
	ExtensionEpochs: "epochs of the extension", ExtensionItems: "new items", ExtensionTriplets: "extension triplets",
}

// Label returns how figures and tables name a metric, e.g. "Procrustes
// disparity" for Procrustes. An unknown metric is a mistake in the script
// and panics.
func Label(metric string) string {
	l, ok := metricLabels[metric]
	if !ok {
		panic(fmt.Sprintf("exp: unknown metric %q (known: %s)", metric, strings.Join(metricNames, ", ")))
	}
	return l
}

// countMetrics are the metrics that count something, printed as integers.
var countMetrics = []string{Epochs, Triplets, Queries, Items, ExtensionEpochs, ExtensionItems, ExtensionTriplets}

// Fields by which results are grouped, filtered and plotted.
var fieldNames = []string{"dataset", "algorithm", "n", "dim", "lambda", "noise", "noise_level", "data_dim", "pca", "max_epochs", "rep", "backend", "optimizer", "params"}

// Field returns a setting of the run as text: "dataset" (the declared name,
// with the stand-in in parentheses when one was used), "algorithm", "n" (the
// number of items the run loads, also where it asks for all of them),
// "dim", "lambda", "noise", "noise_level", "data_dim", "pca", "max_epochs",
// "rep", "backend", "optimizer" ("default" when the method's own) or
// "params". An unknown field panics.
func (r Result) Field(name string) string {
	run := r.Run
	switch name {
	case "dataset":
		if r.Used != "" && !strings.EqualFold(r.Used, run.Dataset) {
			return run.Dataset + " (" + r.Used + ")"
		}
		return run.Dataset
	case "algorithm":
		return run.Algorithm
	case "n":
		return strconv.Itoa(r.items())
	case "dim":
		return strconv.Itoa(run.Dim)
	case "lambda":
		l := run.Lambda
		if l == 0 {
			l = DefaultLambda
		}
		return strconv.FormatFloat(l, 'g', -1, 64)
	case "noise":
		if run.Noise == NoNoise {
			return "none"
		}
		return string(run.Noise)
	case "noise_level":
		return strconv.FormatFloat(run.NoiseLevel, 'g', -1, 64)
	case "data_dim":
		return strconv.Itoa(run.DataDim)
	case "pca":
		return strconv.Itoa(run.PCA)
	case "max_epochs":
		return strconv.Itoa(run.MaxEpochs)
	case "rep":
		return strconv.Itoa(run.Rep)
	case "backend":
		if run.Backend == "" {
			return "cpu"
		}
		return run.Backend
	case "optimizer":
		if run.Optimizer == "" {
			return "default"
		}
		return run.Optimizer
	case "params":
		keys := make([]string, 0, len(run.Params))
		for k := range run.Params {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + "=" + strconv.FormatFloat(run.Params[k], 'g', -1, 64)
		}
		return strings.Join(parts, ",")
	}
	panic(fmt.Sprintf("exp: unknown field %q (known: %s)", name, strings.Join(fieldNames, ", ")))
}

// items returns the number of items the run loads. A run with N = 0 loads
// its dataset's paper size, except on a stand-in, where it was asked for
// more items than the stand-in holds and takes them all (Experiment.sized):
// so an axis over n places FMNIST's 60,000 items standing in for COVTYPE's
// 100,000 at 60,000, not at 0.
func (r Result) items() int {
	if r.Run.N == 0 && r.Used != "" && !strings.EqualFold(r.Used, r.Run.Dataset) {
		if most := MaxItems(r.Used); most > 0 {
			return most
		}
	}
	return r.Run.Items()
}

// Number returns a numeric field ("n", "dim", "lambda", "noise_level", ...)
// as a number, for the x axis of a line plot.
func (r Result) Number(field string) float64 {
	v, err := strconv.ParseFloat(r.Field(field), 64)
	if err != nil {
		panic(fmt.Sprintf("exp: field %q is not numeric", field))
	}
	return v
}

// Results are the results of a Run call, in declaration order.
type Results []Result

// Where returns the results whose field equals value (as Field prints it).
func (rs Results) Where(field, value string) Results {
	var out Results
	for _, r := range rs {
		if r.Field(field) == value {
			out = append(out, r)
		}
	}
	return out
}

// Missing counts the results the run cache lacks (Status Missing).
func (rs Results) Missing() int {
	n := 0
	for _, r := range rs {
		if r.Status == Missing {
			n++
		}
	}
	return n
}

// Filter returns the results for which keep is true.
func (rs Results) Filter(keep func(Result) bool) Results {
	var out Results
	for _, r := range rs {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// Values returns the metric of every OK result.
func (rs Results) Values(metric string) []float64 {
	var out []float64
	for _, r := range rs {
		if r.Status == OK {
			out = append(out, r.Value(metric))
		}
	}
	return out
}

// Mean returns the mean of the metric over the OK results (NaN if none).
func (rs Results) Mean(metric string) float64 {
	m, _, _ := plot.MeanSD(rs.Values(metric))
	return m
}

// Distinct returns the values of a field in order of first appearance.
func (rs Results) Distinct(field string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rs {
		if v := r.Field(field); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// Cell summarises a metric over the results: "mean ± sd" over repetitions
// (just the value for one), or "failed" / "missing" / "—" when there is no
// value.
func (rs Results) Cell(metric string) string {
	m, sd, n := plot.MeanSD(rs.Values(metric))
	if n == 0 {
		if len(rs) == 0 {
			return "—"
		}
		for _, r := range rs {
			if r.Status == Failed {
				return "failed"
			}
		}
		if rs[0].Status == Missing {
			return "missing"
		}
		return "—"
	}
	if n == 1 {
		return Format(metric, m)
	}
	return Format(metric, m) + " ± " + Format(metric, sd)
}

// Format prints a metric's value: seconds as "4.2 ms" (a GPU's times at
// small n), "0.80 s", "12 s", "3.5 min" or "6.7 h", counts (epochs,
// triplets, queries, items) as integers, errors with three decimals.
func Format(metric string, v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case strings.HasSuffix(metric, "_seconds"):
		switch {
		case v >= 5400:
			return strconv.FormatFloat(v/3600, 'f', 1, 64) + " h"
		case v >= 120:
			return strconv.FormatFloat(v/60, 'f', 1, 64) + " min"
		case v >= 10:
			return strconv.FormatFloat(v, 'f', 0, 64) + " s"
		case v >= 0.1:
			return strconv.FormatFloat(v, 'f', 2, 64) + " s"
		case v >= 0.01:
			return strconv.FormatFloat(v*1000, 'f', 0, 64) + " ms"
		}
		return strconv.FormatFloat(v*1000, 'f', 1, 64) + " ms"
	case slices.Contains(countMetrics, metric):
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// Table is a table for the report.
type Table struct {
	Header []string
	Rows   [][]string
}

// NewTable returns an empty table with the given column headers.
func NewTable(header ...string) *Table { return &Table{Header: header} }

// Row appends a row.
func (t *Table) Row(cells ...string) { t.Rows = append(t.Rows, cells) }

// Table pivots the results: one row per value of rows, one column per value
// of cols, each cell the metric's Cell over the matching results.
func (rs Results) Table(rows, cols, metric string) *Table {
	colVals := rs.Distinct(cols)
	t := NewTable(append([]string{rows + " \\ " + cols}, colVals...)...)
	for _, rv := range rs.Distinct(rows) {
		sub := rs.Where(rows, rv)
		cells := []string{rv}
		for _, cv := range colVals {
			cells = append(cells, sub.Where(cols, cv).Cell(metric))
		}
		t.Row(cells...)
	}
	return t
}
