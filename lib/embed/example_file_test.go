package embed_test

import (
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
)

// Write an embedding as NumPy .npy (the extension picks the format) and read
// it back.
func ExampleWriteEmbedding() {
	dir, err := os.MkdirTemp("", "emb")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "emb.npy")
	if err := embed.WriteEmbedding(path, mat.NewDense(2, 2, []float64{0, 1, 2.5, -3})); err != nil {
		panic(err)
	}
	back, err := embed.ReadEmbedding(path)
	if err != nil {
		panic(err)
	}
	fmt.Println(mat.Formatted(back))
	// Output:
	// ⎡  0    1⎤
	// ⎣2.5   -3⎦
}

// Class labels go with an embedding: one integer per item, as CSV or as a
// NumPy int64 array.
func ExampleWriteLabels() {
	dir, err := os.MkdirTemp("", "labels")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "y.npy")
	if err := embed.WriteLabels(path, []int{3, 1, 4}); err != nil {
		panic(err)
	}
	back, err := embed.ReadLabels(path)
	if err != nil {
		panic(err)
	}
	fmt.Println(back)
	// Output: [3 1 4]
}
