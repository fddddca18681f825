package gram

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// workers returns the number of goroutines to use for a requested count
// (0: GOMAXPROCS).
func workers(threads int) int {
	if threads <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return threads
}

// parallelChunks calls f(c) for every chunk c in [0, chunks) on up to threads
// goroutines. Work is split into fixed chunks, not per goroutine, so that any
// per-chunk result (and a sum over chunks taken in order) is the same for
// every thread count.
func parallelChunks(threads, chunks int, f func(c int)) {
	w := min(workers(threads), chunks)
	if w <= 1 {
		for c := 0; c < chunks; c++ {
			f(c)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < w; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c := int(next.Add(1)) - 1
				if c >= chunks {
					return
				}
				f(c)
			}
		}()
	}
	wg.Wait()
}

// chunkRange returns the bounds of chunk c when [0, total) is cut into pieces
// of size chunk.
func chunkRange(c, chunk, total int) (int, int) {
	return c * chunk, min((c+1)*chunk, total)
}

// numChunks returns ⌈total/chunk⌉.
func numChunks(total, chunk int) int { return (total + chunk - 1) / chunk }
