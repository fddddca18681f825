package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestForRunsEveryTaskOnce checks that every task runs exactly once and that
// worker numbers stay below the worker count, for counts around the
// number of tasks.
func TestForRunsEveryTaskOnce(t *testing.T) {
	for _, tc := range []struct{ threads, tasks int }{
		{1, 10}, {4, 0}, {4, 1}, {4, 3}, {3, 100}, {0, 50},
	} {
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
			t.Errorf("threads=%d tasks=%d: a worker number outside [0, %d)", tc.threads, tc.tasks, limit)
		}
		for i := range runs {
			if n := runs[i].Load(); n != 1 {
				t.Errorf("threads=%d tasks=%d: task %d ran %d times", tc.threads, tc.tasks, i, n)
			}
		}
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
