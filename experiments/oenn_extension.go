//go:build experiment

// Paper supplement "Experiments on Generalization to new items": OENN's
// out-of-sample extension on USPS and CHAR. OENN is trained on the training
// items; a fresh EmbNet, with the trained one frozen, embeds the new items
// from triplets (new item, training item, training item).
package main

import (
	"fmt"

	"github.com/oe-lab/oe/runner/exp"
)

func main() {
	e := exp.Begin("Can OENN embed new items without retraining?")
	e.Paper("Supplement, \"Experiments on Generalization to new items\" and its figure (USPS, CHAR)")
	e.Text(`The paper splits CHAR 80/20 (USPS has its own 7,291/2,007 split), trains OENN on 2·n·d·log₂n
triplets of the training items, then embeds the new items from 2 million triplets (x*, y, z) — x* new,
y and z training items — with the trained network frozen and a fresh EmbNet for the new items. It reports
the fraction of those triplets the extension violates (TE) and t-SNE views of both parts. Its finding: the
extension satisfies nearly all of its triplets and the new items' embedding looks like the training
items'. Here USPS's 9,298 items (its train and test files, lib/datasets) are split as the paper splits them:
its 7,291 training items and its 2,007 test items as the new ones; FMNIST, where it stands in for USPS, is
split at random at the same sizes, and CHAR at random 80/20. Besides TE we measure the error on fresh
triplets of the same form and how well the training items' classes predict the new items' classes
(kNN, k = ⌊log₂ n⌋) in the embedding and in the data.`)

	type source struct {
		name, standIn string
		dim, n        int
		fraction      float64
	}
	sources := []source{
		{name: "char", dim: exp.Pick(5, 10, 30), n: exp.Pick(60, 400, 0), fraction: 0.2},
		{name: "usps", standIn: "fmnist", dim: exp.Pick(5, 10, 50), n: exp.Pick(60, 300, 9298), fraction: 2007.0 / 9298},
	}
	if exp.CurrentProfile() == exp.Smoke {
		sources = sources[:1]
		sources[0].standIn = "gmm" // CI may run without the data files
	}
	newTriplets := exp.Pick(2000, 40000, 2000000)
	var results exp.Results
	for _, s := range sources {
		run := exp.Run{Dataset: s.name, StandIn: s.standIn, N: s.n, Dim: s.dim, Lambda: 2, Algorithm: "oenn",
			MaxEpochs: exp.Pick(10, 100, 0), Seed: 1, KeepEmbedding: exp.KeepView}
		results = append(results, e.Extension([]exp.Run{run}, s.fraction, newTriplets)...)
	}
	if exp.CurrentProfile() != exp.Paper {
		e.Note(fmt.Sprintf("Profile %s uses fewer items, d = %d, %d new-item triplets and at most %d epochs per fit.",
			exp.CurrentProfile(), exp.Pick(5, 10, 50), newTriplets, exp.Pick(10, 100, 0)))
	}

	e.Heading("Errors")
	t := exp.NewTable("dataset", "d", "training items", "new items", "OENN_train TE (train)", "OENN_train test error",
		"extension TE (paper's)", "extension error, fresh triplets", "kNN new←train, embedding", "kNN new←train, data", "extension time")
	for _, r := range results {
		if r.Status != exp.OK {
			t.Row(r.Field("dataset"), r.Field("dim"), "", "", r.Status, "", "", "", "", "", "")
			continue
		}
		cells := []string{r.Field("dataset"), r.Field("dim")}
		for _, metric := range []string{exp.Items, exp.ExtensionItems, exp.TrainError, exp.TestError, exp.ExtensionError,
			exp.ExtensionTestError, exp.ExtensionKNNError, exp.ExtensionKNNErrorData, exp.ExtensionSeconds} {
			cells = append(cells, exp.Format(metric, r.Value(metric)))
		}
		t.Row(cells...)
	}
	e.Table("OENN out-of-sample extension (TE: fraction of the training, resp. extension, triplets violated)", t)

	e.Heading("Embeddings")
	for _, r := range results {
		e.ExtensionViews(fmt.Sprintf("%s: training and new items", r.Field("dataset")), r)
	}
}
