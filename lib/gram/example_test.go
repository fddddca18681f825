package gram_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/gram"
	"github.com/oe-lab/oe/lib/triplets"
)

// The three largest eigenvalues of a diagonal matrix, found by the partial
// eigensolver.
func ExampleTopEigen() {
	n := 50
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		a.SetSym(i, i, float64(i%10)-float64(i)/100) // largest: 8.91, 8.81, 8.71
	}
	res, err := gram.TopEigen(gram.DenseOperator{A: a}, 3, nil, gram.EigenOptions{Tol: 1e-10})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.2f converged=%v\n", res.Values, res.Converged)
	// Output: [8.91 8.81 8.71] converged=true
}

// FORTE embeds 100 points of a square from their triplets.
func ExampleFORTE() {
	pts := mat.NewDense(100, 2, nil)
	for i := 0; i < 100; i++ {
		pts.Set(i, 0, float64(i%10))
		pts.Set(i, 1, float64(i/10))
	}
	train, _ := triplets.Random(pts, triplets.Count(2, 100, 2), triplets.Noise{}, 1, 0)
	test, _ := triplets.Random(pts, 2000, triplets.Noise{}, 2, 0)
	res, err := (&gram.FORTE{Rho: 0.5, C1: 1e-4}).Fit(context.Background(),
		embed.Problem{Dim: 2, Train: train}, embed.Options{Seed: 1, MaxEpochs: 100})
	if err != nil {
		panic(err)
	}
	emb := res.Embedding
	wrong := 0
	for t := 0; t < test.Len(); t++ {
		i, j, k := test.At(t)
		dij := sq(emb.At(int(i), 0)-emb.At(int(j), 0)) + sq(emb.At(int(i), 1)-emb.At(int(j), 1))
		dik := sq(emb.At(int(i), 0)-emb.At(int(k), 0)) + sq(emb.At(int(i), 1)-emb.At(int(k), 1))
		if dij >= dik {
			wrong++
		}
	}
	fmt.Println("test triplet error below 10%:", float64(wrong)/float64(test.Len()) < 0.1)
	// Output: test triplet error below 10%: true
}

func sq(v float64) float64 { return v * v }
