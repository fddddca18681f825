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
	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/report"
)

// MaxViewPoints caps the points of an embedding's view (KeepView): t-SNE
// of a paper-sized embedding (60,000 items) would take longer than the runs,
// and a grid's panel, 1.5 inches wide, shows no more (100 per class of
// USPS, 10 per cluster of Birch). Views are most of what a paper-profile
// campaign adds to results.db, which travels with the code: 3,000 points,
// the cap before, took 7.5 KB a view, 1,000 take 2.5 KB (oerun prune thins
// the views stored before; 1,000 divides 3,000, so a thinned view of a 2-D
// embedding keeps the items a new one does). A 2-D embedding of at most
// MaxViewPoints items is its own view.
const MaxViewPoints = 1000

// view returns the 2-D view of the embedding x that the figures draw, and
// the labels of its points (nil without labels): at most MaxViewPoints of
// its items (viewRows), as they are when d ≤ 2 (a 1-D embedding with a zero
// second coordinate) and on t-SNE coordinates otherwise (perplexity 30, as
// the paper's views, lowered for embeddings too small for it, with the given
// number of iterations). The result depends on x alone, not on threads.
func view(x *mat.Dense, labels []int, iterations, threads int) (*mat.Dense, []int, error) {
	n, d := x.Dims()
	if rows := viewRows(n); len(rows) < n {
		sub := mat.NewDense(len(rows), d, nil)
		var lab []int
		if labels != nil {
			lab = make([]int, len(rows))
		}
		for i, src := range rows {
			sub.SetRow(i, x.RawRowView(src))
			if labels != nil {
				lab[i] = labels[src]
			}
		}
		x, labels = sub, lab
	}
	n, _ = x.Dims()
	switch {
	case d == 2:
		return x, labels, nil
	case d == 1:
		y := mat.NewDense(n, 2, nil)
		y.Slice(0, n, 0, 1).(*mat.Dense).Copy(x)
		return y, labels, nil
	}
	perp := math.Min(tsne.DefaultPerplexity, math.Floor(float64(n-1)/3)-1)
	y, err := tsne.Embed(x, tsne.Options{Perplexity: math.Max(perp, 1), Iterations: iterations, Seed: 1, Threads: threads})
	return y, labels, err
}

// viewRows returns the rows of an n-item embedding that its view keeps, in
// order: all of them up to MaxViewPoints, else MaxViewPoints spread evenly.
func viewRows(n int) []int {
	k := min(n, MaxViewPoints)
	rows := make([]int, k)
	for i := range rows {
		rows[i] = i * n / k
	}
	return rows
}

// tsneIterations are the t-SNE iterations of a view at profile p: the
// paper's settings at the paper profile, fewer below it to keep runs and
// reports quick.
func tsneIterations(p Profile) int {
	if p != Paper {
		return 500
	}
	return tsne.DefaultIterations
}

// profile is the profile the experiment runs at.
func (e *Experiment) profile() Profile { return Profile(e.s.Profile) }

// viewer returns the view of the experiment's runs, for the executor to
// store (KeepView).
func (e *Experiment) viewer() execute.ViewFunc {
	iterations := tsneIterations(e.profile())
	return func(x *mat.Dense, labels []int, threads int) (*mat.Dense, []int, error) {
		return view(x, labels, iterations, threads)
	}
}

// drawn returns the points a figure draws of r, and their labels: its stored
// view, or the view of its stored embedding.
func (e *Experiment) drawn(r Result) (*mat.Dense, []int, error) {
	if r.view {
		return r.embedding, r.labels, nil
	}
	return view(r.embedding, r.labels, tsneIterations(e.profile()), runtime.GOMAXPROCS(0))
}

// EmbeddingGrid adds one figure with a panel per (row, column) cell, e.g.
// rows "algorithm" and columns "lambda" as in the paper's embedding figures:
// each panel shows the view of the embedding of the cell's first OK run,
// coloured by class: t-SNE views (perplexity 30, as the paper's) for
// embeddings of more than two dimensions, two-dimensional ones as they are
// (see view). A cell without an OK run, or whose embedding or view was not
// stored, is left blank with the reason.
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
			pts, labels, why := e.cellView(cell)
			if why != "" {
				g.Note(r, c, why)
				continue
			}
			if cell.firstOK().Run.Dim > 2 {
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
// It is drawn as an embedding is (see view: two-dimensional data as it is,
// other data as a t-SNE view, perplexity 30), coloured by class: the paper's "original" figures (the
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
	pts, labels, err := view(ds.X, ds.Labels, tsneIterations(e.profile()), runtime.GOMAXPROCS(0))
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

// TSNE adds a single panel: the view of the embedding of r, on t-SNE
// coordinates (or as it is when two-dimensional), coloured by class.
func (e *Experiment) TSNE(title string, r Result) {
	e.EmbeddingGrid(title, Results{r}, "algorithm", "dataset", fmt.Sprintf("%s embedding of %s (n = %s, d = %d).",
		r.Run.Algorithm, r.Field("dataset"), r.Field("n"), r.Run.Dim))
}

// ExtensionViews adds the paper's figure of an out-of-sample run: one view
// of all items' embeddings (t-SNE, perplexity 30, for d > 2; of at most
// MaxViewPoints items), drawn as two panels, the training items embedded by
// OENN_train and the new items embedded by the extension, coloured by
// class.
func (e *Experiment) ExtensionViews(title string, r Result) {
	if e.s.DeclareOnly {
		return
	}
	nNew := int(r.Metrics[ExtensionItems])
	if r.Status != OK || r.embedding == nil || nNew < 1 {
		e.Note(fmt.Sprintf("No figure %q: the out-of-sample run (%s) is %s or its embedding was not stored.", title, r.Field("dataset"), r.Status))
		return
	}
	y, labels, err := e.drawn(r)
	if err != nil {
		e.Note(fmt.Sprintf("No figure %q: t-SNE failed: %v.", title, err))
		return
	}
	// The stored rows are the training items' then the new items'; the
	// view keeps some of each, in order.
	nAll := int(r.Metrics[Items]) + nNew
	rows := viewRows(nAll)
	if n, _ := y.Dims(); n != len(rows) {
		e.Note(fmt.Sprintf("No figure %q: the stored embedding has %d rows, not the view of %d items.", title, n, nAll))
		return
	}
	nTrain := 0
	for _, i := range rows {
		if i < nAll-nNew {
			nTrain++
		}
	}
	n := len(rows)
	var trainLab, newLab []int
	if labels != nil {
		trainLab, newLab = labels[:nTrain], labels[nTrain:]
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
	caption := fmt.Sprintf("Out-of-sample extension on %s, d = %d: %s of the %d training items (left) and the %d new items (right), one common map, coloured by class (labels are not used for training).",
		r.Field("dataset"), r.Run.Dim, viewName(r.Run.Dim), nAll-nNew, nNew)
	if n < nAll {
		caption += fmt.Sprintf(" %d of the %d items are drawn, spread evenly.", n, nAll)
	}
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

// cellView returns the points a cell of a grid draws, the view of its first
// OK run with a stored embedding or view, or why there are none.
func (e *Experiment) cellView(cell Results) (*mat.Dense, []int, string) {
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
	pts, labels, err := e.drawn(r)
	if err != nil {
		return nil, nil, "t-SNE failed"
	}
	return pts, labels, ""
}

// viewName says what the view of a d-dimensional embedding is.
func viewName(d int) string {
	if d > 2 {
		return "t-SNE view (perplexity 30)"
	}
	return "the embedding"
}
