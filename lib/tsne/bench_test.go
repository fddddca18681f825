package tsne

import (
	"runtime"
	"testing"
)

// BenchmarkEmbed times a full default run (1000 iterations, perplexity 30,
// θ = 0.5) at the size of the CHAR data set's 30-D embedding.
func BenchmarkEmbed(b *testing.B) {
	x, _ := gaussianClusters(10, 1797, 30, 3, 101)
	for b.Loop() {
		if _, err := Embed(x, Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAffinities times the neighbour search and perplexity calibration
// alone for the same input.
func BenchmarkAffinities(b *testing.B) {
	x, _ := gaussianClusters(10, 1797, 30, 3, 101)
	for b.Loop() {
		jointAffinities(x.RawMatrix(), 90, 30, runtime.GOMAXPROCS(0))
	}
}
