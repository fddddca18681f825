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

// Chunks returns the number of chunks of size items that cover [0, total):
// ⌈total/size⌉. It panics if size < 1.
func Chunks(total, size int) int {
	if size < 1 {
		panic("parallel: chunk size < 1")
	}
	return (total + size - 1) / size
}

// Chunk returns the bounds [lo, hi) of chunk c when [0, total) is cut into
// chunks of size items; the last chunk may be shorter.
func Chunk(c, size, total int) (lo, hi int) {
	return c * size, min((c+1)*size, total)
}

// ForChunks calls body(worker, lo, hi) for every chunk [lo, hi) of size
// items covering [0, total), on Workers(threads) goroutines at most.
func ForChunks(threads, total, size int, body func(worker, lo, hi int)) {
	For(threads, Chunks(total, size), func(w, c int) {
		lo, hi := Chunk(c, size, total)
		body(w, lo, hi)
	})
}

// Map returns f's result for every chunk [lo, hi) of size items covering
// [0, total), in chunk order: a reduction over the result in slice order
// does not depend on the number of threads.
func Map[T any](threads, total, size int, f func(worker, lo, hi int) T) []T {
	out := make([]T, Chunks(total, size))
	For(threads, len(out), func(w, c int) {
		lo, hi := Chunk(c, size, total)
		out[c] = f(w, lo, hi)
	})
	return out
}

// Sum returns Σ f(lo, hi) over the chunks of size items covering [0, total),
// the partial sums added in chunk order, so the result is the same for
// every thread count.
func Sum(threads, total, size int, f func(lo, hi int) float64) float64 {
	var s float64
	for _, p := range Map(threads, total, size, func(_, lo, hi int) float64 { return f(lo, hi) }) {
		s += p
	}
	return s
}

// ForWith is For for tasks that need scratch space: task(work, t) runs for
// every t in [0, tasks), with work the running goroutine's own value, made
// by newWork once per goroutine.
func ForWith[W any](threads, tasks int, newWork func() W, task func(work W, t int)) {
	work := make([]W, max(1, min(Workers(threads), tasks)))
	for w := range work {
		work[w] = newWork()
	}
	For(threads, tasks, func(w, t int) { task(work[w], t) })
}
