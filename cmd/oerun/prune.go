package main

import (
	"context"
	"fmt"
	"os"

	"github.com/oe-lab/oe/runner"
)

func init() {
	register("prune", command{
		summary: "delete from results.db what no report uses (embeddings no script keeps, trace epochs between the checks; with --superseded, runs of other algorithm versions) and compact it",
		run:     pruneCommand,
	})
}

func pruneCommand(args []string) error {
	fs := newFlags("prune", "[flags]")
	db := fs.String("db", runner.DefaultDB, "results database (SQLite)")
	superseded := fs.Bool("superseded", false, "also delete the runs that no script execution lists and that another version of their algorithm or of the evaluation computed (this build never reads them again)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected argument %q", fs.Arg(0))
	}
	// Prune would otherwise create an empty database at a mistyped path.
	if _, err := os.Stat(*db); err != nil {
		return err
	}
	p, err := runner.Prune(context.Background(), *db, *superseded)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr(fs), "%s: %v\n", *db, p)
	return nil
}
