// Command table3row runs every algorithm on one dataset at the paper's full
// size (Table 3 of Vankadara et al.: d and λ = 2 as there) through the
// runner's evaluation, one run after another, and prints a Markdown table
// of our test triplet error, kNN error and time next to the paper's.
//
//	OE_DATA=../shared/data go run ./bench/table3row -dataset char -dim 30
//
// It stores nothing: it is a timing tool for a quiet machine, where the
// experiment scripts' runs share the cores.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"strings"

	_ "github.com/oe-lab/oe/lib/algorithms"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/evaluate"
	"github.com/oe-lab/oe/runner/exp"
	"github.com/oe-lab/oe/runner/job"
)

func main() {
	dataset := flag.String("dataset", "char", "dataset (lib/datasets name)")
	dim := flag.Int("dim", 30, "embedding dimension (Table 3: 30 for CHAR and COVTYPE, 50 for MNIST, FMNIST, USPS, 2 for UNIFORM)")
	algs := flag.String("algorithms", "soe,ste,tste,cklx,loe,lloe,gnmds,ckl,forte,oenn", "comma-separated algorithms, run in this order, each with optional parameters (gnmds:tol=0.01)")
	table := flag.String("paper", "experiments/data/table3_general.tsv", "the paper's Table 3 (TSV)")
	seed := flag.Uint64("seed", 1, "run seed")
	optimizer := flag.String("optimizer", "", "optimiser of the methods that take one (oerun algorithms): adam or lbfgs; empty: each method's default")
	flag.Parse()
	paper, err := exp.ReadTable3(*table)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s, d = %d, λ = 2, seed %d, optimizer %q: ours (this machine) | paper (GPU)\n\n", strings.ToUpper(*dataset), *dim, *seed, *optimizer)
	fmt.Println("| algorithm | test error | kNN error | time to converge (s) | fit (s) | epochs (stop) | paper test | paper kNN | paper time (s) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	ev := evaluate.New()
	for _, a := range strings.Split(*algs, ",") {
		name, params, err := embed.ParseMethod(a)
		if err != nil {
			log.Fatal(err)
		}
		c := job.Config{Dataset: *dataset, Algorithm: name, Params: params, Dim: *dim, Lambda: 2, Seed: *seed, Optimizer: *optimizer}
		can, err := c.Normalize()
		if err != nil {
			log.Fatal(err)
		}
		p := paper.Cell(name, *dataset)
		out, err := ev.Run(context.Background(), can.Config, 0)
		if err != nil {
			fmt.Printf("| %s | failed: %v | | | | | %s | %s | %s |\n", a, err, dash(p.TestError), dash(p.KNNError), dash(p.Seconds))
			continue
		}
		m := out.Metrics
		fmt.Printf("| %s | %.3f | %.3f | %.1f | %.1f | %d (%s) | %s | %s | %s |\n", a, m[job.TestError], m[job.KNNError],
			m[job.ConvergeSeconds], m[job.FitSeconds], int(m[job.Epochs]), out.StopReason, dash(p.TestError), dash(p.KNNError), dash(p.Seconds))
	}
}

// dash prints a cell of Table 3, "–" where it has no number.
func dash(s string) string {
	if s == "" || s == "-" {
		return "–"
	}
	return s
}
