package optim

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// rosenbrock is the Rosenbrock function in n dimensions, minimum 0 at
// (1, …, 1), with its gradient.
func rosenbrock(grad, x []float64) float64 {
	clear(grad)
	f := 0.0
	for i := 0; i+1 < len(x); i++ {
		a, b := 1-x[i], x[i+1]-x[i]*x[i]
		f += a*a + 100*b*b
		grad[i] += -2*a - 400*x[i]*b
		grad[i+1] += 200 * b
	}
	return f
}

func TestLBFGSFindsTheMinimum(t *testing.T) {
	tests := []struct {
		name string
		x0   []float64
	}{
		{"2D from (-1.2, 1), the classic start", []float64{-1.2, 1}},
		{"10D from 0", make([]float64, 10)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := append([]float64(nil), tc.x0...)
			calls := 0
			l := LBFGS{MaxIterations: 1000, FuncGrad: func(g, x []float64) float64 { calls++; return rosenbrock(g, x) }}
			iters, stop, err := l.Minimize(x)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range x {
				if math.Abs(v-1) > 1e-4 {
					t.Fatalf("x[%d] = %v after %d iterations (%v), want 1", i, v, iters, stop)
				}
			}
			if stop != LBFGSNoProgress {
				t.Errorf("stop = %v, want LBFGSNoProgress at the minimum", stop)
			}
			// One FuncGrad call per point: no more calls than iterations
			// times a generous line-search budget, and at least one each.
			if calls < iters || calls > 10*iters+10 {
				t.Errorf("%d FuncGrad calls for %d iterations", calls, iters)
			}
		})
	}
}

func TestLBFGSIterateAndLimits(t *testing.T) {
	newX := func() []float64 { return []float64{-1.2, 1} }
	t.Run("iterate sees every iteration and can stop", func(t *testing.T) {
		var seen []int
		last := math.Inf(1)
		l := LBFGS{MaxIterations: 1000, FuncGrad: rosenbrock, Iterate: func(it int, x []float64, f float64) (bool, error) {
			seen = append(seen, it)
			if f > last+1e-12 {
				t.Errorf("iteration %d: objective rose from %v to %v", it, last, f)
			}
			last = f
			return it == 5, nil
		}}
		iters, stop, err := l.Minimize(newX())
		if err != nil || stop != LBFGSStopped || iters != 5 || len(seen) != 5 || seen[4] != 5 {
			t.Errorf("got %d iterations, %v, %v, iterations seen %v; want 5, stopped", iters, stop, err, seen)
		}
	})
	t.Run("iteration cap", func(t *testing.T) {
		iters, stop, err := LBFGS{MaxIterations: 3, FuncGrad: rosenbrock}.Minimize(newX())
		if err != nil || stop != LBFGSMaxIterations || iters != 3 {
			t.Errorf("got %d iterations, %v, %v; want 3, max iterations", iters, stop, err)
		}
	})
	t.Run("the callback's error", func(t *testing.T) {
		boom := errors.New("boom")
		_, _, err := LBFGS{MaxIterations: 10, FuncGrad: rosenbrock, Iterate: func(int, []float64, float64) (bool, error) { return false, boom }}.Minimize(newX())
		if !errors.Is(err, boom) {
			t.Errorf("error %v, want boom", err)
		}
	})
	t.Run("non-finite objective", func(t *testing.T) {
		nan := func(g, x []float64) float64 { rosenbrock(g, x); return math.NaN() }
		_, _, err := LBFGS{MaxIterations: 10, FuncGrad: nan}.Minimize(newX())
		if err == nil || !strings.Contains(err.Error(), "not finite") {
			t.Errorf("error %v, want one saying not finite", err)
		}
	})
	for _, tc := range []struct {
		name string
		l    LBFGS
	}{{"no objective", LBFGS{MaxIterations: 1}}, {"no iterations", LBFGS{FuncGrad: rosenbrock}}} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := tc.l.Minimize(newX()); err == nil || !strings.HasPrefix(err.Error(), "optim: ") {
				t.Errorf("error %v, want an optim: error", err)
			}
		})
	}
}
