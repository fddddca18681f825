package oenn

import (
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas/gonum"
)

// The two matrix products of EmbNet's forward and backward passes, written
// as sequences of long axpy operations (gonum's SIMD kernel) rather than
// calls to gonum's Sgemm, whose 64×64 blocking runs axpys of at most 64
// elements: at the paper's widths (w in the hundreds) this is 2–3× faster.
// Zero entries of the left factor, which ReLU makes common, are skipped.
// Work is split into fixed blocks of output rows, each summed in a fixed
// order, so results do not depend on the number of workers.

var level1 gonum.Implementation

const (
	rowBlock = 32  // output rows per task
	kBlock   = 128 // rows of the right factor kept hot in cache at a time
)

// parallel runs task(0..tasks−1) on up to GOMAXPROCS goroutines.
func parallel(tasks int, task func(int)) {
	workers := min(runtime.GOMAXPROCS(0), tasks)
	if workers <= 1 {
		for t := 0; t < tasks; t++ {
			task(t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			for t := int(next.Add(1) - 1); t < tasks; t = int(next.Add(1) - 1) {
				task(t)
			}
		}()
	}
	wg.Wait()
}

// mulAdd computes c += a·b for row-major a (r×k), b (k×n), c (r×n).
func mulAdd(r, n, k int, a, b, c []float32) {
	parallel((r+rowBlock-1)/rowBlock, func(t int) {
		r0, r1 := t*rowBlock, min((t+1)*rowBlock, r)
		for k0 := 0; k0 < k; k0 += kBlock {
			k1 := min(k0+kBlock, k)
			for i := r0; i < r1; i++ {
				ci := c[i*n : (i+1)*n]
				for l, v := range a[i*k+k0 : i*k+k1] {
					if v != 0 {
						level1.Saxpy(n, v, b[(k0+l)*n:(k0+l+1)*n], 1, ci, 1)
					}
				}
			}
		}
	})
}

// mulTransAdd computes c += aᵀ·b for row-major a (r×k), b (r×n), c (k×n).
func mulTransAdd(r, n, k int, a, b, c []float32) {
	parallel((k+rowBlock-1)/rowBlock, func(t int) {
		l0, l1 := t*rowBlock, min((t+1)*rowBlock, k)
		for i := 0; i < r; i++ {
			bi := b[i*n : (i+1)*n]
			for l, v := range a[i*k+l0 : i*k+l1] {
				if v != 0 {
					level1.Saxpy(n, v, bi, 1, c[(l0+l)*n:(l0+l+1)*n], 1)
				}
			}
		}
	})
}

// transpose writes the transpose of the row-major r×c matrix a into t (c×r).
func transpose(r, c int, a, t []float32) {
	for i := 0; i < r; i++ {
		for j, v := range a[i*c : (i+1)*c] {
			t[j*r+i] = v
		}
	}
}
