package exp

import (
	"context"
	"fmt"

	"github.com/oe-lab/oe/runner/evaluate"
)

// Extension declares and executes OENN out-of-sample runs, the paper's
// "Generalization to new items" (supplement), as runner/evaluate's
// Extension computes them: each run's data is split into training items
// and a fraction testFraction of new items (the dataset's own test set where
// that fraction of all its items is it, as for USPS, else at random); OENN_train is
// fitted on the training items, as the run declares it; then OENN's
// extension embeds the new items from newTriplets triplets (new item,
// training item, training item). Every run's Algorithm must be "oenn".
//
// A result's Metrics hold those of OENN_train on the training items
// (TrainError, TestError, Procrustes, KNNError, KNNErrorData, FitSeconds,
// Epochs, Triplets, Items) and the Extension* metrics of the new items. The
// stored embedding has the training items' rows first, then the new items'
// (ExtensionViews draws both).
//
// Runs are cached like Run's, under a key that adds the protocol, its
// version, testFraction and newTriplets to the run's config.
func (e *Experiment) Extension(runs []Run, testFraction float64, newTriplets int) Results {
	protocol := evaluate.Extension{TestFraction: testFraction, NewTriplets: newTriplets}
	if err := protocol.Check(); err != nil {
		panic(fmt.Sprintf("exp: Extension: %v", err))
	}
	var todo []declared
	for _, r := range runs {
		if r.Algorithm != "oenn" {
			panic(fmt.Sprintf("exp: Extension needs algorithm oenn, run declares %q", r.Algorithm))
		}
		if !Registered(r.Algorithm) {
			e.Note("Algorithm oenn is not registered in this build; the out-of-sample runs were skipped.")
			return nil
		}
		as := func(r Run, used string) declared {
			r = e.sized(r, used, false)
			c, err := r.config(used).Normalize()
			if err != nil {
				panic(fmt.Errorf("exp: run %+v: %w", r, err))
			}
			if c, err = protocol.Job(c); err != nil {
				panic(err)
			}
			return declared{r, used, c}
		}
		if e.s.ReportOnly {
			// As in Run: the data the runs recorded, not the files here.
			if d, ok := e.stored(r, as); ok {
				todo = append(todo, d)
				continue
			}
		}
		used, ok := e.resolve(r)
		if !ok && !e.s.ReportOnly {
			// As in Run: a run stored already is declared by its key.
			if d, ok := e.stored(r, as); ok {
				todo = append(todo, d)
				continue
			}
		}
		if !ok {
			e.s.SkipForData(r.Dataset)
			e.Note(fmt.Sprintf("Dataset %s is not available here and has no stand-in; its out-of-sample runs were skipped.", r.Dataset))
			continue
		}
		todo = append(todo, as(r, used))
	}
	ctx := context.Background()
	if !e.s.ReportOnly {
		x := *e.s.Exec
		x.Eval = protocol.Run
		sum, err := x.Execute(ctx, e.pending(todo))
		e.count(sum)
		if err != nil {
			panic(fmt.Errorf("exp: executing out-of-sample runs: %w", err))
		}
	}
	return e.collect(ctx, todo, "out-of-sample runs")
}
