package algorithms_test

import (
	"testing"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

// uniformProblem draws n points of the paper's Uniform set in 3 dimensions
// and m triplets from them, and returns a function that makes the problem
// (embedding dimension 2) a registered method fits: the triplets for a
// passive method, a fresh oracle over the points, under noise, for an
// active one.
func uniformProblem(t *testing.T, n, m int, noise triplets.Noise) func(embed.Info) embed.Problem {
	t.Helper()
	ds, err := datasets.Load("uniform", datasets.Options{N: n, Dim: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	train, err := triplets.Random(ds.X, m, triplets.Noise{}, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	return func(info embed.Info) embed.Problem {
		if !info.Active {
			return embed.Problem{Dim: 2, Train: train}
		}
		o, err := triplets.NewOracle(ds.X, noise, 5)
		if err != nil {
			t.Fatal(err)
		}
		return embed.Problem{Dim: 2, Oracle: o}
	}
}
