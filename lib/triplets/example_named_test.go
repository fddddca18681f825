package triplets_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/oe-lab/oe/lib/triplets"
)

// People's answers, one a row: each becomes the triplet (head, chosen,
// other) over items numbered in the byte order of their names.
func ExampleReadCSVWith() {
	responses := `head,left,right,answer,worker
silk,wool,steel,wool,w1
silk,wool,steel,left,w2
silk,steel,wool,steel,w3
`
	s, form, err := triplets.ReadCSVWith(strings.NewReader(responses), "answers.csv", triplets.ReadOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(form, s.Len(), "triplets over", s.Names)
	for t := 0; t < s.Len(); t++ {
		i, j, k := s.At(t)
		fmt.Printf("%s is closer to %s than to %s\n", s.ItemName(i), s.ItemName(j), s.ItemName(k))
	}
	for _, q := range triplets.Tallies(s) {
		fmt.Printf("%s: %s %d, %s %d\n", s.ItemName(q.Head), s.ItemName(q.A), q.ForA, s.ItemName(q.B), q.ForB)
	}
	if err := triplets.WriteCSV(os.Stdout, s); err != nil {
		panic(err)
	}
	// Output:
	// responses 3 triplets over [silk steel wool]
	// silk is closer to wool than to steel
	// silk is closer to wool than to steel
	// silk is closer to steel than to wool
	// silk: steel 1, wool 2
	// i,j,k
	// silk,wool,steel
	// silk,wool,steel
	// silk,steel,wool
}

// Holding out a fifth of the queries: every answer to one query lands on
// the same side.
func ExampleSplit() {
	s := &triplets.Set{N: 4}
	for r := 0; r < 5; r++ { // five answers to each of four queries
		s.Append(0, 1, 2)
		s.Append(0, 2, 3)
		s.Append(3, 1, 2)
		s.Append(3, 2, 0)
	}
	train, test, err := triplets.Split(s, 0.25, triplets.ByQuery, 1)
	if err != nil {
		panic(err)
	}
	fmt.Println(train.Len(), "training and", test.Len(), "test triplets;", len(triplets.Tallies(test)), "test query")
	folds, err := triplets.Folds(s, 4, triplets.ByQuery, 1)
	if err != nil {
		panic(err)
	}
	for f, fold := range folds {
		fmt.Printf("fold %d holds out %d answers to %d query\n", f, fold.Test.Len(), len(triplets.Tallies(fold.Test)))
	}
	// Output:
	// 15 training and 5 test triplets; 1 test query
	// fold 0 holds out 5 answers to 1 query
	// fold 1 holds out 5 answers to 1 query
	// fold 2 holds out 5 answers to 1 query
	// fold 3 holds out 5 answers to 1 query
}
