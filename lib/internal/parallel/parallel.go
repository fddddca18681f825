// Package parallel runs numbered tasks on a few goroutines, the one worker
// pool of oe's CPU code. Tasks are handed out one at a time from a shared
// counter, so the split adapts to uneven tasks; callers keep results
// deterministic by making each task's output depend only on its number,
// never on which goroutine ran it.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers returns the number of goroutines for a requested thread count:
// threads itself, or GOMAXPROCS when threads ≤ 0.
func Workers(threads int) int {
	if threads <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return threads
}

// For calls task(worker, t) for every t in [0, tasks) on
// min(Workers(threads), tasks) goroutines and returns when all are done.
// worker ∈ [0, Workers(threads)) names the goroutine running the task, so
// that it can use scratch space of its own.
func For(threads, tasks int, task func(worker, t int)) {
	w := min(Workers(threads), tasks)
	if w <= 1 {
		for t := 0; t < tasks; t++ {
			task(0, t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(w)
	for g := 0; g < w; g++ {
		go func() {
			defer wg.Done()
			for t := int(next.Add(1) - 1); t < tasks; t = int(next.Add(1) - 1) {
				task(g, t)
			}
		}()
	}
	wg.Wait()
}
