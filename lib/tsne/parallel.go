package tsne

import "sync"

// parallelFor runs body over [0, n) split into threads contiguous ranges and
// waits for all of them. Callers write only to per-index outputs, so the result
// does not depend on how the range is split.
func parallelFor(n, threads int, body func(lo, hi int)) {
	if threads > n {
		threads = n
	}
	if threads <= 1 {
		body(0, n)
		return
	}
	var wg sync.WaitGroup
	for t := 0; t < threads; t++ {
		lo, hi := t*n/threads, (t+1)*n/threads
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(lo, hi)
		}()
	}
	wg.Wait()
}
