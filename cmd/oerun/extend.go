package main

import (
	"context"
	"errors"
	"fmt"
	"os"

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
	model := fs.String("model", "", "OENN model file saved by training (required)")
	trips := fs.String("triplets", "", "triplets (.csv or .npy) involving new items: indices below the model's item count are its items, higher ones new (required)")
	out := fs.String("out", "", "output CSV: one row per item, the model's items then the new ones (required)")
	seed := fs.Uint64("seed", 1, "random seed of the new network")
	epochs := fs.Int("epochs", 0, "maximum number of epochs (0: OENN's default, with the paper's stopping rule)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *model == "" || *trips == "" || *out == "" {
		fs.Usage()
		return errors.New("--model, --triplets and --out are required")
	}
	return runExtend(*model, *trips, *out, *seed, *epochs)
}

// runExtend loads the OENN model at modelPath, embeds the new items of the
// triplets at tripletsPath with the paper's out-of-sample extension (a second
// EmbNet trained with the first one frozen), and writes the embedding of all
// items, the model's first, as CSV to outPath. epochs caps the training (0:
// the default cap, with the paper's stopping rule).
func runExtend(modelPath, tripletsPath, outPath string, seed uint64, epochs int) error {
	if epochs < 0 {
		return fmt.Errorf("epochs must be ≥ 0, got %d", epochs)
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
	loss := 0.0
	if len(res.Trace) > 0 {
		loss = res.Trace[len(res.Trace)-1].Loss
	}
	fmt.Fprintf(os.Stderr, "oerun extend: %d new items after the model's %d, %d triplets: %d epochs (%s), final loss %.4g, %v\n",
		set.N-m.Items(), m.Items(), set.Len(), res.Epochs, res.StopReason, loss, res.Elapsed.Round(1e6))
	return embed.WriteEmbedding(outPath, res.Embedding)
}

// saveOENNModel saves the network that alg, an OENN that has been fitted,
// trained; `oerun embed --save-model path` calls it after Fit.
func saveOENNModel(alg embed.Algorithm, path string) error {
	o, ok := alg.(*oenn.OENN)
	if !ok {
		return fmt.Errorf("--save-model: only oenn has a model to save, not %s", alg.Name())
	}
	m := o.Model()
	if m == nil {
		return errors.New("--save-model: oenn has no trained model (Fit did not succeed)")
	}
	return m.Save(path)
}
