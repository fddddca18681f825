package exp

import (
	"fmt"
	"math"
	"runtime"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/plot"
	"github.com/oe-lab/oe/lib/tsne"
	"github.com/oe-lab/oe/runner/evaluate"
	"github.com/oe-lab/oe/runner/report"
)

// maxViewPoints caps the points of one embedding panel: t-SNE of a
// paper-sized embedding (60,000 items) would take longer than the runs, and a
// panel an inch wide shows no more.
const maxViewPoints = 3000

// EmbeddingGrid adds one figure with a panel per (row, column) cell, e.g.
// rows "algorithm" and columns "lambda" as in the paper's embedding figures:
// each panel shows the embedding of the cell's first OK run, coloured by
// class. Embeddings of more than two dimensions are shown as t-SNE views
// (perplexity 30, as the paper's), two-dimensional ones as they are. A cell
// without an OK run, or whose embedding was not stored, is left blank with
// the reason.
func (e *Experiment) EmbeddingGrid(title string, rs Results, rows, cols, caption string) {
	if e.s.DeclareOnly {
		return // no report is written: no t-SNE views either
	}
	rowVals, colVals := rs.Distinct(rows), rs.Distinct(cols)
	if len(rowVals) == 0 {
		e.Note(fmt.Sprintf("Figure %q not drawn: no runs.", title))
		return
	}
	colLabels := make([]string, len(colVals))
	for c, v := range colVals {
		colLabels[c] = cols + " " + v
	}
	g := plot.NewPanels(title, rowVals, colLabels)
	tsneUsed := false
	for r, rv := range rowVals {
		for c, cv := range colVals {
			cell := rs.Where(rows, rv).Where(cols, cv)
			pts, labels, why := e.view(cell)
			if why != "" {
				g.Note(r, c, why)
				continue
			}
			if _, d := cell.firstOK().embedding.Dims(); d > 2 {
				tsneUsed = true
			}
			if err := g.Scatter(r, c, pts, labels, plot.Bounds(pts)); err != nil {
				e.Note(fmt.Sprintf("Figure %q: panel %s = %s, %s = %s not drawn: %v.", title, rows, rv, cols, cv, err))
			}
		}
	}
	if caption == "" {
		caption = title
	}
	if tsneUsed {
		caption += " Embeddings of more than two dimensions are shown as t-SNE views (perplexity 30)."
	}
	e.figure(title, caption, report.Figure{Plot: g.Plot(),
		Width:  math.Min(1.5*float64(len(colVals))+1.2, 16),
		Height: math.Min(1.5*float64(len(rowVals))+0.8, 22)}, nil)
}

// Original adds a panel of the data that run r embedded: the ground truth
// its triplets came from (its dataset, or the stand-in it used, at its
// number of items, subsample and PCA; runner/evaluate's DataOptions).
// Two-dimensional data is drawn as it is, other data as a t-SNE view
// (perplexity 30), coloured by class: the paper's "original" figures (the
// 2D sets beside their embeddings, the t-SNE view of USPS in Figure 7). It
// loads the data, also under `oerun report`; data that cannot be loaded
// here gets a note instead.
func (e *Experiment) Original(title string, r Result) {
	used := r.Used
	if used == "" {
		used = r.Run.Dataset
	}
	c, err := r.Run.config(used).Normalize()
	if err != nil {
		panic(fmt.Errorf("exp: run %+v: %w", r.Run, err))
	}
	ds, err := datasets.Load(used, evaluate.DataOptions(c.Config))
	if err != nil {
		e.Note(fmt.Sprintf("No figure %q: %v.", title, err))
		return
	}
	n, d := ds.X.Dims()
	pts, labels, err := viewOf(ds.X, ds.Labels)
	if err != nil {
		e.Note(fmt.Sprintf("No figure %q: t-SNE failed: %v.", title, err))
		return
	}
	pl, err := plot.Scatter(plot.Axes{Title: title}, pts, labels)
	if err != nil {
		e.Note(fmt.Sprintf("No figure %q: %v.", title, err))
		return
	}
	caption := fmt.Sprintf("The original data of %s: %d items in %d dimensions", r.Field("dataset"), n, d)
	if d > 2 {
		caption += ", as a t-SNE view (perplexity 30)"
	}
	if labels != nil {
		caption += ", coloured by class (labels are not used for the triplets)"
	}
	e.figure(title, caption+".", report.Figure{Plot: pl, Width: 4, Height: 4}, nil)
}

// TSNE adds a single panel: the embedding of r on t-SNE coordinates (or as
// it is when two-dimensional), coloured by class.
func (e *Experiment) TSNE(title string, r Result) {
	e.EmbeddingGrid(title, Results{r}, "algorithm", "dataset", fmt.Sprintf("%s embedding of %s (n = %s, d = %d).",
		r.Run.Algorithm, r.Field("dataset"), r.Field("n"), r.Run.Dim))
}

// ExtensionViews adds the paper's figure of an out-of-sample run: one t-SNE
// view (perplexity 30) of all items' embeddings, drawn as two panels, the
// training items embedded by OENN_train and the new items embedded by the
// extension, coloured by class.
func (e *Experiment) ExtensionViews(title string, r Result) {
	if e.s.DeclareOnly {
		return
	}
	nNew := int(r.Metrics[ExtensionItems])
	if r.Status != OK || r.embedding == nil || nNew < 1 {
		e.Note(fmt.Sprintf("No figure %q: the out-of-sample run (%s) is %s or its embedding was not stored.", title, r.Field("dataset"), r.Status))
		return
	}
	y := r.embedding
	if _, d := y.Dims(); d > 2 {
		var err error
		if y, err = tsneView(y); err != nil {
			e.Note(fmt.Sprintf("No figure %q: t-SNE failed: %v.", title, err))
			return
		}
	}
	n, _ := y.Dims()
	nTrain := n - nNew
	var trainLab, newLab []int
	if r.labels != nil {
		trainLab, newLab = r.labels[:nTrain], r.labels[nTrain:]
	}
	g := plot.NewPanels(title, []string{""}, []string{
		fmt.Sprintf("training items (OENN_train), TE %.3f", r.Metrics[TrainError]),
		fmt.Sprintf("new items (extension), TE %.3f", r.Metrics[ExtensionError])})
	box := plot.Bounds(y) // one common map
	for c, part := range []struct {
		pts    *mat.Dense
		labels []int
	}{{y.Slice(0, nTrain, 0, 2).(*mat.Dense), trainLab}, {y.Slice(nTrain, n, 0, 2).(*mat.Dense), newLab}} {
		if err := g.Scatter(0, c, part.pts, part.labels, box); err != nil {
			e.Note(fmt.Sprintf("No figure %q: %v.", title, err))
			return
		}
	}
	caption := fmt.Sprintf("Out-of-sample extension on %s, d = %d: t-SNE view (perplexity 30) of the %d training items (left) and the %d new items (right), one common map, coloured by class (labels are not used for training).",
		r.Field("dataset"), r.Run.Dim, nTrain, nNew)
	e.figure(title, strings.TrimSpace(caption), report.Figure{Plot: g.Plot(), Width: 8, Height: 4.4}, nil)
}

// firstOK returns the first OK result with a stored embedding, preferring
// repetition 0 (the zero Result when there is none).
func (rs Results) firstOK() Result {
	var best Result
	for _, r := range rs {
		if r.Status == OK && r.embedding != nil && (best.embedding == nil || r.Run.Rep < best.Run.Rep) {
			best = r
		}
	}
	return best
}

// view returns the 2-D points of a cell's embedding, or why there are none.
func (e *Experiment) view(cell Results) (*mat.Dense, []int, string) {
	r := cell.firstOK()
	switch {
	case len(cell) == 0:
		return nil, nil, "no run"
	case r.embedding == nil:
		if cell[0].Status == OK {
			return nil, nil, "not stored"
		}
		return nil, nil, cell[0].Status
	}
	x, labels, err := viewOf(r.embedding, r.labels)
	if err != nil {
		return nil, nil, "t-SNE failed"
	}
	return x, labels, ""
}

// viewOf returns the 2-D points that show x (and their labels): at most
// maxViewPoints of its rows, as they are when x has one or two columns
// (one padded with zeros), else their t-SNE view.
func viewOf(x *mat.Dense, labels []int) (*mat.Dense, []int, error) {
	if n, _ := x.Dims(); n > maxViewPoints {
		x, labels = everyKth(x, labels, maxViewPoints)
	}
	if _, d := x.Dims(); d <= 2 {
		if d == 1 {
			n, _ := x.Dims()
			y := mat.NewDense(n, 2, nil)
			y.Slice(0, n, 0, 1).(*mat.Dense).Copy(x)
			x = y
		}
		return x, labels, nil
	}
	y, err := tsneView(x)
	return y, labels, err
}

// tsneView returns the t-SNE view of x: the paper's settings (perplexity
// 30), with the perplexity lowered for embeddings too small for it, and
// fewer iterations below the paper profile to keep reports quick to
// rebuild.
func tsneView(x *mat.Dense) (*mat.Dense, error) {
	n, _ := x.Dims()
	perp := math.Min(tsne.DefaultPerplexity, math.Floor(float64(n-1)/3)-1)
	iters := tsne.DefaultIterations
	if CurrentProfile() != Paper {
		iters = 500
	}
	return tsne.Embed(x, tsne.Options{Perplexity: math.Max(perp, 1), Iterations: iters, Seed: 1, Threads: runtime.GOMAXPROCS(0)})
}

// everyKth keeps k rows spread evenly over x (and their labels).
func everyKth(x *mat.Dense, labels []int, k int) (*mat.Dense, []int) {
	n, d := x.Dims()
	out := mat.NewDense(k, d, nil)
	var lab []int
	if labels != nil {
		lab = make([]int, k)
	}
	for i := 0; i < k; i++ {
		src := i * n / k
		out.SetRow(i, x.RawRowView(src))
		if labels != nil {
			lab[i] = labels[src]
		}
	}
	return out, lab
}
