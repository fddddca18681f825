// Command lloeablation measures which departure of the authors' LLOE code
// (landmark.Departure) makes the difference between the paper's LLOE and
// ours: it fits LLOE with none of them, with each alone, with all but each,
// and with all (the authors' code), on one dataset, over several seeds, and
// prints a Markdown table of the test triplet error, the kNN error, the
// oracle queries and the fit time (bench/landmark.md).
//
//	OE_DATA=../shared/data go run ./bench/lloeablation -dataset char -dim 30
//	go run ./bench/lloeablation -dataset uniform -n 1000 -dim 2
//
// Test triplet error on 10,000 fresh noiseless triplets and kNN error (k =
// ⌊log₂ n⌋, 70/30 split) as the runner measures them; λ = 2 is LLOE's
// phase-one multiplier. It stores nothing.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/landmark"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/plot"
	"github.com/oe-lab/oe/lib/triplets"
)

func main() {
	dataset := flag.String("dataset", "char", "dataset (lib/datasets name)")
	n := flag.Int("n", 0, "items (0: the paper's size)")
	dim := flag.Int("dim", 30, "embedding dimension")
	seeds := flag.Int("seeds", 3, "seeds 1..seeds, each a fresh subsample (where n is below the dataset's), oracle, test set and fit")
	threads := flag.Int("threads", 0, "threads per fit (0: all)")
	flag.Parse()

	var variants []landmark.Departure
	variants = append(variants, 0)
	variants = append(variants, landmark.Departures()...)
	for _, d := range landmark.Departures() {
		variants = append(variants, landmark.AuthorsCode&^d)
	}
	variants = append(variants, landmark.AuthorsCode)

	fmt.Printf("LLOE on %s (n = %s, d = %d, λ = 2), mean ± sd over seeds 1–%d\n\n", strings.ToUpper(*dataset), size(*n), *dim, *seeds)
	fmt.Println("| departures of the authors' code replayed | test triplet error | kNN error | oracle queries | fit (s) |")
	fmt.Println("|---|---|---|---|---|")
	for _, v := range variants {
		var te, knn, queries, secs []float64
		for seed := uint64(1); seed <= uint64(*seeds); seed++ {
			r, err := fit(*dataset, *n, *dim, seed, v, *threads)
			if err != nil {
				log.Fatalf("%s, seed %d: %v", v, seed, err)
			}
			te, knn, queries, secs = append(te, r.test), append(knn, r.knn), append(queries, r.queries), append(secs, r.seconds)
		}
		fmt.Printf("| %s | %s | %s | %s | %s |\n", v, meanSD(te, "%.3f"), meanSD(knn, "%.3f"), meanSD(queries, "%.0f"), meanSD(secs, "%.1f"))
	}
}

// result is what one fit measured.
type result struct{ test, knn, queries, seconds float64 }

// fit embeds the dataset with LLOE replaying the departures v, and measures
// the embedding.
func fit(dataset string, n, dim int, seed uint64, v landmark.Departure, threads int) (result, error) {
	ds, err := datasets.Load(dataset, datasets.Options{N: n, Seed: seed})
	if err != nil {
		return result{}, err
	}
	oracle, err := triplets.NewOracle(ds.X, triplets.Noise{}, seed)
	if err != nil {
		return result{}, err
	}
	start := time.Now()
	res, err := (&landmark.LLOE{Replay: v}).Fit(context.Background(), embed.Problem{Dim: dim, Oracle: oracle}, embed.Options{Seed: seed, Threads: threads})
	if err != nil {
		return result{}, err
	}
	r := result{queries: float64(res.Queries), seconds: time.Since(start).Seconds()}
	test, err := triplets.Random(ds.X, 10_000, triplets.Noise{}, seed+1000, threads)
	if err != nil {
		return result{}, err
	}
	r.test = metrics.TripletError(res.Embedding, test)
	r.knn = -1
	if ds.Labels != nil {
		if r.knn, err = metrics.KNNError(res.Embedding, ds.Labels, seed); err != nil {
			return result{}, err
		}
	}
	return r, nil
}

// meanSD prints "mean ± sd" in the format f; "—" for negative values (no
// labels).
func meanSD(xs []float64, f string) string {
	m, sd, _ := plot.MeanSD(xs)
	if m < 0 {
		return "—"
	}
	return fmt.Sprintf(f+" ± "+f, m, sd)
}

func size(n int) string {
	if n == 0 {
		return "all"
	}
	return fmt.Sprint(n)
}
