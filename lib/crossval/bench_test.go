package crossval

import (
	"context"
	"testing"

	"github.com/oe-lab/oe/lib/datasets"
)

// BenchmarkMaterial is issue #20's benchmark: five methods × five
// dimensions × five folds on the material data's training votes, on
// GOMAXPROCS threads (the target: 60 s on two cores).
func BenchmarkMaterial(b *testing.B) {
	c, err := datasets.LoadComparisons("material")
	if err != nil {
		b.Skipf("material data not available: %v", err)
	}
	s := c.Triplets(c.Train, datasets.EachVote)
	cfg := Config{Dims: []int{1, 2, 3, 5, 8}, Folds: 5, Seed: 1}
	for _, m := range []string{"soe", "ste", "tste", "cklx", "forte"} {
		cfg.Methods = append(cfg.Methods, Method{Name: m})
	}
	for b.Loop() {
		if _, err := Run(context.Background(), s, cfg); err != nil {
			b.Fatal(err)
		}
	}
}
