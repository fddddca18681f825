package job

import (
	"context"

	"github.com/oe-lab/oe/lib/embed"
)

// checkpointKey keys the checkpoint a context carries.
type checkpointKey struct{}

// WithCheckpoint returns ctx carrying the checkpoint that the evaluation of
// a run gives its fit (embed.Options.Checkpoint). The executor decides which
// runs keep one (runner/execute's Executor.Checkpoints); the context carries
// it because every evaluation (of runs, extensions, people's comparisons)
// shares one signature and only the fits of resumable methods use it.
func WithCheckpoint(ctx context.Context, cp *embed.Checkpoint) context.Context {
	return context.WithValue(ctx, checkpointKey{}, cp)
}

// CheckpointFrom returns the checkpoint ctx carries, or nil.
func CheckpointFrom(ctx context.Context) *embed.Checkpoint {
	cp, _ := ctx.Value(checkpointKey{}).(*embed.Checkpoint)
	return cp
}
