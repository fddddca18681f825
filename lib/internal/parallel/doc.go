// Package parallel is the one worker pool of oe's CPU code: every goroutine
// fan-out in lib goes through For or one of the chunked forms built on it.
//
// # Determinism
//
// Tasks are handed out one at a time from a shared counter, so the split
// adapts to uneven tasks, and which goroutine runs a task varies from run to
// run. Results stay the same whatever the number of workers when each task's
// output depends only on its number. For reductions (sums of floating-point
// values, gradients), that means cutting the work into FIXED chunks whose
// size is a constant of the caller, never derived from the worker count,
// and combining the chunks' partial results in chunk order: Chunks, Chunk,
// ForChunks, Map and Sum do exactly that. oe's CPU methods give the same
// result bit for bit for 1 or 64 threads (lib/algorithms' thread test holds
// every method to it).
//
// # Conventions
//
// threads comes first and means the number of goroutines, GOMAXPROCS when
// ≤ 0 (Workers); the callback comes last. worker ∈ [0, Workers(threads))
// names the goroutine running a task, so that the task can use scratch space
// of its own (ForWith); it must never influence a result.
package parallel
