package exp

import (
	"fmt"
	"strconv"
	"strings"
)

// worseThanChance is the test triplet error above which a run is worse than
// a random embedding: 0.5 plus ten standard deviations of the error of a
// random embedding on 10,000 test triplets (0.005).
const worseThanChance = 0.55

// Collapsed adds, under the given title, a table of the OK runs among rs
// that are worse than a random embedding (test triplet error above 0.55):
// its method, the given fields (e.g. "lambda"), repetition, train and test
// triplet errors, and how many items share the most crowded point of its
// stored embedding ("not stored" where the report keeps no embedding of the
// run, "t-SNE view" where it keeps a t-SNE view, whose coordinates do not
// keep coinciding items together). It adds nothing when no run is listed.
//
// A collapsed embedding puts many items on one point. A triplet among them
// is a tie, and the triplet error counts ties as violated (lib/metrics), so
// such a run can score worse than a random embedding: an error above chance
// is the embedding's, not the metric's, and the table says so where the
// error curves show it.
//
// It does not list runs by the crowding alone: from few triplets (λ = 0.01,
// about 150 for Aggregation's 788 items) most items are named by no
// triplet and may stay together where they started, which is not a
// collapse of the fit.
func (e *Experiment) Collapsed(title string, rs Results, fields ...string) {
	header := append(append([]string{"algorithm"}, fields...), "rep", Label(TrainError), Label(TestError), "items on one point")
	t := NewTable(header...)
	for _, r := range rs {
		if r.Status != OK || !(r.Value(TestError) > worseThanChance) { // NaN is not listed
			continue
		}
		row := []string{r.Field("algorithm")}
		for _, f := range fields {
			row = append(row, r.Field(f))
		}
		most, of, share := crowded(r)
		if share == "" {
			share = fmt.Sprintf("%d of %d", most, of)
		}
		t.Row(append(row, r.Field("rep"), Format(TrainError, r.Value(TrainError)), Format(TestError, r.Value(TestError)), share)...)
	}
	if len(t.Rows) == 0 {
		return
	}
	e.Text(fmt.Sprintf(`These runs score worse than a random embedding: test triplet error above %g, where a random
embedding's is 0.5 ± 0.005 on 10,000 test triplets. Their embeddings collapse: many items share one point,
a triplet among them is a tie, and ties count as violated. Under a hinge loss on squared distances
(OENN's), such a triplet costs the margin with a zero gradient, so training does not pull its items apart
again. OENN's network adds a trap of its own: the items whose codes switch off every unit of a hidden layer
come out at one point exactly, and no gradient reaches the layers below that one for them, so they move only
together. The last column counts the items on the most crowded point of the stored embedding, where one is
stored; a 2-D embedding is stored as its view of 1,000 items, its coordinates to 1/1,023 of their range,
where a random one puts at most 2 or 3 items in one cell.`, worseThanChance))
	e.Table(title, t)
}

// crowded returns how many of the items of r's stored embedding share its
// most crowded point, and of how many; why says why it cannot tell: the
// embedding was not stored, or only as a t-SNE view.
func crowded(r Result) (most, of int, why string) {
	switch {
	case r.embedding == nil:
		return 0, 0, "not stored"
	case r.view && r.Run.Dim > 2:
		return 0, 0, "t-SNE view"
	}
	n, d := r.embedding.Dims()
	count := make(map[string]int, n)
	var key strings.Builder
	for i := 0; i < n; i++ {
		key.Reset()
		for j := 0; j < d; j++ {
			v := r.embedding.At(i, j)
			if v == 0 {
				v = 0 // −0 is the same point as 0
			}
			key.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			key.WriteByte(',')
		}
		count[key.String()]++
		most = max(most, count[key.String()])
	}
	return most, n, ""
}
