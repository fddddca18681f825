package embed_test

import (
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
)

// An embedding of named items: in CSV the names are the first column; an
// .npy file keeps them in a sidecar beside it.
func ExampleWriteNamedEmbedding() {
	dir, err := os.MkdirTemp("", "named")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	emb := mat.NewDense(2, 2, []float64{0, 1, 2.5, -3})
	for _, name := range []string{"emb.csv", "emb.npy"} {
		path := filepath.Join(dir, name)
		if err := embed.WriteNamedEmbedding(path, emb, []string{"silk", "steel"}); err != nil {
			panic(err)
		}
		_, names, err := embed.ReadNamedEmbedding(path)
		if err != nil {
			panic(err)
		}
		fmt.Println(name, names)
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "emb.csv"))
	fmt.Print(string(csv))
	side, _ := os.ReadFile(embed.NamesPath(filepath.Join(dir, "emb.npy")))
	fmt.Print(string(side))
	// Output:
	// emb.csv [silk steel]
	// emb.npy [silk steel]
	// name,x1,x2
	// silk,0,1
	// steel,2.5,-3
	// silk
	// steel
}
