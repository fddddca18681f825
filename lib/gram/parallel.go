package gram

// Work is cut into fixed chunks (parallel.For runs them), not one piece per
// goroutine, so that any per-chunk result, and a sum over chunks taken in
// order, is the same for every thread count.

// chunkRange returns the bounds of chunk c when [0, total) is cut into pieces
// of size chunk.
func chunkRange(c, chunk, total int) (int, int) {
	return c * chunk, min((c+1)*chunk, total)
}

// numChunks returns ⌈total/chunk⌉.
func numChunks(total, chunk int) int { return (total + chunk - 1) / chunk }
