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
	"bufio"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	_ "github.com/oe-lab/oe/lib/algorithms"
	"github.com/oe-lab/oe/runner/evaluate"
	"github.com/oe-lab/oe/runner/job"
)

func main() {
	dataset := flag.String("dataset", "char", "dataset (lib/datasets name)")
	dim := flag.Int("dim", 30, "embedding dimension (Table 3: 30 for CHAR and COVTYPE, 50 for MNIST, FMNIST, USPS, 2 for UNIFORM)")
	algs := flag.String("algorithms", "soe,ste,tste,cklx,loe,lloe,gnmds,ckl,forte,oenn", "comma-separated algorithms, run in this order")
	table := flag.String("paper", "experiments/data/table3_general.tsv", "the paper's Table 3 (TSV)")
	seed := flag.Uint64("seed", 1, "run seed")
	flag.Parse()
	paper, err := readTable3(*table, *dataset)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s, d = %d, λ = 2, seed %d: ours (this machine) | paper (GPU)\n\n", strings.ToUpper(*dataset), *dim, *seed)
	fmt.Println("| algorithm | test error | kNN error | time to converge (s) | fit (s) | epochs (stop) | paper test | paper kNN | paper time (s) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	ev := evaluate.New()
	for _, a := range strings.Split(*algs, ",") {
		c := job.Config{Dataset: *dataset, Algorithm: a, Dim: *dim, Lambda: 2, Seed: *seed}
		can, err := c.Normalize()
		if err != nil {
			log.Fatal(err)
		}
		p := paper[a]
		if p == nil {
			p = []string{"–", "–", "–"}
		}
		out, err := ev.Run(context.Background(), can.Config, 0)
		if err != nil {
			fmt.Printf("| %s | failed: %v | | | | | %s | %s | %s |\n", a, err, p[0], p[1], p[2])
			continue
		}
		m := out.Metrics
		fmt.Printf("| %s | %.3f | %.3f | %.1f | %.1f | %d (%s) | %s | %s | %s |\n", a, m[job.TestError], m[job.KNNError],
			m[job.ConvergeSeconds], m[job.FitSeconds], int(m[job.Epochs]), out.StopReason, p[0], p[1], p[2])
	}
}

// readTable3 returns the paper's test error, kNN error and time for each
// algorithm on dataset, keyed by our algorithm names.
func readTable3(path, dataset string) (map[string][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows := map[string][]string{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") || strings.HasPrefix(text, "algorithm\t") || text == "" {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) != 5 {
			return nil, fmt.Errorf("%s:%d: %d columns, want 5", path, line, len(cols))
		}
		if strings.EqualFold(cols[1], dataset) {
			rows[strings.ToLower(strings.ReplaceAll(cols[0], "-", ""))] = cols[2:]
		}
	}
	return rows, sc.Err()
}
