package main

import (
	"context"
	"fmt"
	"os"

	"github.com/oe-lab/oe/runner"
)

func init() {
	register("prune", command{
		summary: "delete from results.db what no report uses (embeddings no script keeps, trace epochs between the checks; with --superseded, runs of other algorithm versions) and compact it; given scripts, the runs of a campaign under way go by what those scripts declare now",
		run:     pruneCommand,
	})
}

func pruneCommand(args []string) error {
	fs := newFlags("prune", "[flags] [experiments/X.go ...]")
	db := fs.String("db", runner.DefaultDB, "results database (SQLite)")
	superseded := fs.Bool("superseded", false, "also delete the runs that no script execution lists and that another version of their algorithm or of the evaluation computed (this build never reads them again)")
	if err := fs.Parse(args); err != nil {
		return err
	}

	// Prune would otherwise create an empty database at a mistyped path.
	if _, err := os.Stat(*db); err != nil {
		return err
	}
	p, err := runner.Prune(context.Background(), *db, *superseded, fs.Args())
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr(fs), "%s: %v\n", *db, p)
	return nil
}
