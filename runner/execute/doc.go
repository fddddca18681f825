// Package execute brings a batch of runs up to date in the run cache: it
// looks every run's key up in the store, executes the missing ones (and, when
// asked, the failed ones) in parallel up to a number of jobs, records each
// result — success or failure with its reason — in one transaction, and
// reports progress with one overall bar.
//
// A run that returns an error, panics, or produces a non-finite embedding or
// metric is recorded as failed and does not stop the others. A run cut short
// by cancellation is not recorded, so it runs again next time; with
// Executor.Checkpoints, one of a resumable method (lib/embed's
// Info.Resumable) goes on from its last checkpoint. A run this
// machine cannot execute (Executor.Runnable: a GPU run where no GPU answers)
// is neither executed nor recorded: it stays missing for a machine that can.
package execute
