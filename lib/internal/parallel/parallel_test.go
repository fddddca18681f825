package parallel

import (
	"math"
	"runtime"
	"sync/atomic"
	"testing"
)

// TestForRunsEveryTaskOnce checks that every task runs exactly once and that
// worker numbers stay below the worker count, for counts around the
// number of tasks.
func TestForRunsEveryTaskOnce(t *testing.T) {
	for _, tc := range []struct {
		name           string
		threads, tasks int
	}{
		{"serial", 1, 10}, {"no tasks", 4, 0}, {"one task", 4, 1}, {"fewer tasks than threads", 4, 3},
		{"many tasks", 3, 100}, {"GOMAXPROCS", 0, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs := make([]atomic.Int32, tc.tasks)
			limit := Workers(tc.threads)
			var badWorker atomic.Bool
			For(tc.threads, tc.tasks, func(w, task int) {
				if w < 0 || w >= limit {
					badWorker.Store(true)
				}
				runs[task].Add(1)
			})
			if badWorker.Load() {
				t.Errorf("a worker number outside [0, %d)", limit)
			}
			for i := range runs {
				if n := runs[i].Load(); n != 1 {
					t.Errorf("task %d ran %d times", i, n)
				}
			}
		})
	}
}

func TestWorkers(t *testing.T) {
	if got := Workers(3); got != 3 {
		t.Errorf("Workers(3) = %d", got)
	}
	if got, want := Workers(0), runtime.GOMAXPROCS(0); got != want {
		t.Errorf("Workers(0) = %d, want GOMAXPROCS %d", got, want)
	}
}

// TestChunksCoverTheRange checks that ForChunks visits every index of
// [0, total) exactly once, in chunks of the given size (the last shorter),
// and that Chunks counts them (values by hand: ⌈total/size⌉).
func TestChunksCoverTheRange(t *testing.T) {
	for _, tc := range []struct {
		name              string
		total, size, want int
	}{
		{"empty", 0, 4, 0}, {"one short chunk", 3, 4, 1}, {"exact", 8, 4, 2}, {"tail", 9, 4, 3}, {"unit chunks", 5, 1, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Chunks(tc.total, tc.size); got != tc.want {
				t.Errorf("Chunks(%d, %d) = %d, want %d", tc.total, tc.size, got, tc.want)
			}
			seen := make([]atomic.Int32, tc.total)
			var bad atomic.Bool
			ForChunks(3, tc.total, tc.size, func(_, lo, hi int) {
				if lo%tc.size != 0 || hi <= lo || hi-lo > tc.size || (hi-lo < tc.size && hi != tc.total) {
					bad.Store(true)
				}
				for i := lo; i < hi; i++ {
					seen[i].Add(1)
				}
			})
			if bad.Load() {
				t.Error("a chunk with the wrong bounds")
			}
			for i := range seen {
				if n := seen[i].Load(); n != 1 {
					t.Errorf("index %d visited %d times", i, n)
				}
			}
		})
	}
}

func TestChunksPanicsOnZeroSize(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Chunks(10, 0) did not panic")
		}
	}()
	Chunks(10, 0)
}

// TestSumIndependentOfThreads sums values whose float64 sum depends on the
// order of addition (1e16 and 1 alternate: 1e16 + 1 rounds back to 1e16)
// and checks that Sum gives the same bits for every thread count, and that
// Map returns the chunks in order.
func TestSumIndependentOfThreads(t *testing.T) {
	const total, size = 10_000, 7
	vals := make([]float64, total)
	for i := range vals {
		vals[i] = 1
		if i%3 == 0 {
			vals[i] = 1e16 * float64(1-2*(i%2))
		}
	}
	sum := func(threads int) float64 {
		return Sum(threads, total, size, func(lo, hi int) float64 {
			s := 0.0
			for _, v := range vals[lo:hi] {
				s += v
			}
			return s
		})
	}
	want := sum(1)
	for _, threads := range []int{2, 3, 7, 16} {
		if got := sum(threads); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("threads=%d: Sum = %v, threads=1 gave %v", threads, got, want)
		}
	}
	starts := Map(4, total, size, func(_, lo, _ int) int { return lo })
	for c, lo := range starts {
		if lo != c*size {
			t.Fatalf("Map: chunk %d starts at %d, want %d", c, lo, c*size)
		}
	}
}

// TestForWithGivesEachGoroutineItsWork checks that every task runs once
// and that no two goroutines share a work value at the same time, for fewer
// and more tasks than threads.
func TestForWithGivesEachGoroutineItsWork(t *testing.T) {
	for _, tc := range []struct {
		name           string
		threads, tasks int
	}{{"more tasks", 3, 500}, {"fewer tasks", 8, 2}, {"no tasks", 4, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			type work struct {
				busy atomic.Bool
				done int
			}
			var made []*work
			var shared atomic.Bool
			ForWith(tc.threads, tc.tasks, func() *work {
				w := new(work)
				made = append(made, w)
				return w
			}, func(w *work, _ int) {
				if !w.busy.CompareAndSwap(false, true) {
					shared.Store(true)
				}
				w.done++
				w.busy.Store(false)
			})
			if shared.Load() {
				t.Error("two goroutines used one work value at once")
			}
			done := 0
			for _, w := range made {
				done += w.done
			}
			if done != tc.tasks {
				t.Errorf("%d tasks done, want %d", done, tc.tasks)
			}
		})
	}
}
