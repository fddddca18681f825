package main

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/oenn"
	"github.com/oe-lab/oe/lib/triplets"
)

// TestExtendCommand trains a small OENN, saves it as `oerun embed
// --save-model` would, and runs `oerun extend` on triplets of 5 new items.
func TestExtendCommand(t *testing.T) {
	const n, k = 30, 5
	rng := rand.New(rand.NewPCG(1, 1))
	x := mat.NewDense(n+k, 2, nil)
	for i := 0; i < n+k; i++ {
		x.Set(i, 0, rng.Float64())
		x.Set(i, 1, rng.Float64())
	}
	train, err := triplets.Random(x.Slice(0, n, 0, 2).(*mat.Dense), 400, triplets.Noise{}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	alg := &oenn.OENN{Width: 16}
	if _, err := alg.Fit(context.Background(), embed.Problem{Dim: 2, Train: train}, embed.Options{Seed: 1, MaxEpochs: 2}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "m.oenn")
	if err := saveOENNModel(alg, model); err != nil {
		t.Fatal(err)
	}
	ext := triplets.NewSet(n+k, 50)
	for q := 0; q < 50; q++ {
		ext.Append(int32(n+q%k), int32(q%n), int32((q+1)%n))
	}
	trips := filepath.Join(dir, "new.csv")
	if err := triplets.WriteFile(trips, ext); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "emb.csv")
	if code := run([]string{"extend", "--model", model, "--triplets", trips, "--out", out, "--epochs", "3"}); code != 0 {
		t.Fatalf("oerun extend exited with %d", code)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != n+k || strings.Count(lines[0], ",") != 1 {
		t.Fatalf("output has %d lines (first %q), want %d rows of 2 columns", len(lines), lines[0], n+k)
	}

	// Errors name what is wrong.
	if err := saveOENNModel(&oenn.OENN{}, filepath.Join(dir, "x.oenn")); err == nil {
		t.Error("saving an unfitted OENN should fail")
	}
	if err := runExtend(filepath.Join(dir, "missing.oenn"), trips, out, 1, 1, io.Discard); err == nil || !strings.Contains(err.Error(), "missing.oenn") {
		t.Errorf("missing model: err = %v", err)
	}
	if code := run([]string{"extend", "--model", model}); code == 0 {
		t.Error("extend without --triplets and --out should fail")
	}
}
