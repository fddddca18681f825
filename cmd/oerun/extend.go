package main

import (
	"context"
	"fmt"
	"io"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/oenn"
	"github.com/oe-lab/oe/lib/triplets"
)

func init() {
	register("extend", command{
		summary: "embed new items with a trained OENN model (out-of-sample extension)",
		run:     extendCommand,
	})
}

func extendCommand(args []string) error {
	fs := newFlags("extend", "--model model.oenn --triplets new.csv --out emb.csv")
	model := fs.String("model", "", "OENN model file saved by oerun embed --save-model")
	trips := fs.String("triplets", "", "triplets (.csv or .npy) involving new items: indices below the model's item count are its items, higher ones new")
	out := fs.String("out", "", "output embedding, .csv or .npy: one row per item, the model's items then the new ones")
	seed := fs.Uint64("seed", 1, "random seed of the new network")
	epochs := fs.Int("epochs", 0, "maximum number of epochs (0: OENN's default, with the paper's stopping rule)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *model == "" || *trips == "" || *out == "" {
		return usageErrorf("--model, --triplets and --out are required")
	}
	return runExtend(*model, *trips, *out, *seed, *epochs, stderr(fs))
}

// runExtend loads the OENN model at modelPath, embeds the new items of the
// triplets at tripletsPath with the paper's out-of-sample extension (a second
// EmbNet trained with the first one frozen), and writes the embedding of all
// items, the model's first, to outPath. epochs caps the training (0: the
// default cap, with the paper's stopping rule). It says what it did on log.
func runExtend(modelPath, tripletsPath, outPath string, seed uint64, epochs int, log io.Writer) error {
	if epochs < 0 {
		return usageErrorf("--epochs must be ≥ 0, got %d", epochs)
	}
	if err := checkOutput("out", outPath, matrixExts); err != nil {
		return err
	}
	m, err := oenn.Load(modelPath)
	if err != nil {
		return err
	}
	set, err := triplets.ReadFile(tripletsPath, 0)
	if err != nil {
		return err
	}
	res, err := m.Extend(context.Background(), set, embed.Options{Seed: seed, MaxEpochs: epochs})
	if err != nil {
		return fmt.Errorf("%s: %w", tripletsPath, err)
	}
	if err := embed.WriteEmbedding(outPath, res.Embedding); err != nil {
		return err
	}
	loss := 0.0
	if len(res.Trace) > 0 {
		loss = res.Trace[len(res.Trace)-1].Loss
	}
	fmt.Fprintf(log, "%d new items after the model's %d, %d triplets: %d epochs (%s), final loss %.4g, %v → %s\n",
		set.N-m.Items(), m.Items(), set.Len(), res.Epochs, res.StopReason, loss, roundDuration(res.Elapsed), outPath)
	return nil
}
