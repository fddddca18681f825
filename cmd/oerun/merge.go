package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/oe-lab/oe/runner/store"
)

func init() {
	register("merge", command{
		summary: "fold shard databases (oerun run --shard) into results.db, one transaction per shard",
		run:     mergeCommand,
	})
}

func mergeCommand(args []string) error {
	fs := newFlags("merge", "[flags] results.db shard.db ...")
	wait := fs.Duration("wait", time.Minute, "how long to wait for another process writing results.db")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(files) < 2 {
		return usageErrorf("want the database to merge into and at least one shard")
	}
	// Every shard must be there and readable before any is merged: a merge
	// job that folded some shards in would change the split that tasks
	// submitted again compute from results.db.
	for _, shard := range files[1:] {
		st, err := store.OpenReadOnly(shard)
		if err != nil {
			return fmt.Errorf("%w; nothing was merged", err)
		}
		st.Close()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	dst, err := store.Open(files[0])
	if err != nil {
		return err
	}
	defer dst.Close()
	var total store.Merged
	for i, shard := range files[1:] {
		m, err := dst.Merge(ctx, shard, *wait)
		if err != nil {
			if i > 0 {
				return fmt.Errorf("%w (the %d shards before it are merged; merging them again changes nothing)", err, i)
			}
			return err
		}
		fmt.Fprintf(stderr(fs), "%s: %v\n", shard, m)
		total = total.Add(m)
	}
	fmt.Fprintf(stderr(fs), "%s: %v from %d shards\n", files[0], total, len(files)-1)
	return nil
}
