package crossval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/internal/parallel"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

// Method is a passive embedding method by its registry name (lib/embed)
// with its parameters (nil: the defaults).
type Method struct {
	Name   string
	Params embed.Params
}

// String names m in results: its name with the parameters it sets
// (embed.MethodString: "cklx:init=1").
func (m Method) String() string { return embed.MethodString(m.Name, m.Params) }

// Config is what Run cross-validates.
type Config struct {
	Methods []Method
	// Dims are the embedding dimensions tried, each ≥ 1.
	Dims []int
	// Folds is the number of folds k ≥ 2, at most the number of queries
	// (or triplets, with By = triplets.ByTriplet).
	Folds int
	// By says what a fold holds out: whole queries (the zero value) or
	// single triplets.
	By triplets.SplitBy
	// Seed draws the folds and seeds every fit.
	Seed uint64
	// Threads is the number of fits run at once (0: GOMAXPROCS).
	Threads int
	// Fit holds the other settings of every fit (epochs, learning rate,
	// stopping rule); Run sets its Seed and runs each fit on one thread.
	Fit embed.Options
	// Progress, when set, is called after each fit (one call at a time).
	Progress func(Progress)
}

// Progress reports one finished fit.
type Progress struct {
	Done, Total int
	Method      string
	Dim, Fold   int
	// Error is the fit's held-out triplet error.
	Error   float64
	Elapsed time.Duration
}

// Cell is one method at one d across the folds.
type Cell struct {
	Method string
	Dim    int
	// Errors and Seconds are each fold's held-out triplet error and fit
	// time (the wall time of Fit, on one thread).
	Errors, Seconds []float64
	// Mean and SD are the mean and sample standard deviation of Errors.
	Mean, SD float64
}

// SE is the standard error of Mean: SD/√folds.
func (c Cell) SE() float64 { return c.SD / math.Sqrt(float64(len(c.Errors))) }

// MeanSeconds is the mean fit time over the folds.
func (c Cell) MeanSeconds() float64 { return stat.Mean(c.Seconds, nil) }

// Choice is what cross-validation picks for one method.
type Choice struct {
	Method string
	// Best is the d of the lowest mean held-out error (the smaller d on a
	// tie); OneSE the smallest d whose mean is within one standard error
	// of Best's.
	Best, OneSE int
}

// Result holds a cell per method and d, methods in the order of
// Config.Methods and dimensions in increasing order, and a choice per
// method.
type Result struct {
	Cells   []Cell
	Choices []Choice
}

// Run cross-validates cfg.Methods at cfg.Dims on s: it splits s into
// cfg.Folds folds and fits every method at every d on each fold's training
// triplets (all n items of s embedded), scoring the fold's held-out
// triplets. A method that fails (a bad parameter, divergence) fails the run
// with an error naming the method, d and fold; so do cancellation of ctx,
// an active method (it asks an oracle instead of learning from triplets)
// and folds that s cannot fill.
func Run(ctx context.Context, s *triplets.Set, cfg Config) (*Result, error) {
	dims, err := cfg.check()
	if err != nil {
		return nil, err
	}
	folds, err := triplets.Folds(s, cfg.Folds, cfg.By, cfg.Seed)
	if err != nil {
		return nil, fmt.Errorf("crossval: %w", err)
	}
	res := &Result{Cells: make([]Cell, len(cfg.Methods)*len(dims))}
	for c := range res.Cells {
		res.Cells[c] = Cell{Method: cfg.Methods[c/len(dims)].String(), Dim: dims[c%len(dims)],
			Errors: make([]float64, cfg.Folds), Seconds: make([]float64, cfg.Folds)}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var mu sync.Mutex // guards done and the Progress calls
	done, total := 0, len(res.Cells)*cfg.Folds
	opt := cfg.Fit
	opt.Seed, opt.Threads, opt.Progress = cfg.Seed, 1, nil
	parallel.For(cfg.Threads, total, func(_, task int) {
		if ctx.Err() != nil {
			return
		}
		c, f := task/cfg.Folds, task%cfg.Folds
		cell := &res.Cells[c]
		meth := cfg.Methods[c/len(dims)]
		alg, err := embed.New(meth.Name, meth.Params) // one per fit: a method may keep state (OENN its model)
		var fit *embed.Result
		if err == nil {
			fit, err = alg.Fit(ctx, embed.Problem{N: s.N, Dim: cell.Dim, Train: folds[f].Train}, opt)
		}
		if err != nil {
			cancel(fmt.Errorf("crossval: %s at d=%d, fold %d: %w", cell.Method, cell.Dim, f+1, err))
			return
		}
		cell.Errors[f] = metrics.TripletError(fit.Embedding, folds[f].Test)
		cell.Seconds[f] = fit.Elapsed.Seconds()
		if cfg.Progress != nil {
			mu.Lock()
			done++
			cfg.Progress(Progress{Done: done, Total: total, Method: cell.Method, Dim: cell.Dim, Fold: f + 1,
				Error: cell.Errors[f], Elapsed: fit.Elapsed})
			mu.Unlock()
		}
	})
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	for c, cell := range res.Cells {
		res.Cells[c] = NewCell(cell.Method, cell.Dim, cell.Errors, cell.Seconds)
	}
	for m, meth := range cfg.Methods {
		res.Choices = append(res.Choices, Choose(meth.String(), res.Cells[m*len(dims):(m+1)*len(dims)]))
	}
	return res, nil
}

// NewCell returns the cell of a method at d whose folds had the given
// held-out errors and fit times, with their mean and sample standard
// deviation.
func NewCell(method string, dim int, errors, seconds []float64) Cell {
	c := Cell{Method: method, Dim: dim, Errors: errors, Seconds: seconds}
	c.Mean, c.SD = stat.MeanStdDev(errors, nil)
	return c
}

// Choose picks the best d and the one-standard-error d among one method's
// cells, which are in increasing order of d (as Run returns them).
func Choose(method string, cells []Cell) Choice {
	best := 0
	for c := range cells {
		if cells[c].Mean < cells[best].Mean {
			best = c
		}
	}
	limit := cells[best].Mean + cells[best].SE()
	oneSE := best
	for c := range best {
		if cells[c].Mean <= limit {
			oneSE = c
			break
		}
	}
	return Choice{Method: method, Best: cells[best].Dim, OneSE: cells[oneSE].Dim}
}

// check validates the configuration, building every method once to check
// its parameters, and returns the dimensions in increasing order.
func (cfg Config) check() ([]int, error) {
	if len(cfg.Methods) == 0 || len(cfg.Dims) == 0 {
		return nil, errors.New("crossval: no methods or no dimensions to try")
	}
	dims := slices.Sorted(slices.Values(cfg.Dims))
	for i, d := range dims {
		if d < 1 {
			return nil, fmt.Errorf("crossval: dimension %d: want d ≥ 1", d)
		}
		if i > 0 && dims[i-1] == d {
			return nil, fmt.Errorf("crossval: dimension %d given twice", d)
		}
	}
	for i, m := range cfg.Methods {
		info, err := embed.Lookup(m.Name)
		if err != nil {
			return nil, fmt.Errorf("crossval: %w", err)
		}
		if info.Active {
			return nil, fmt.Errorf("crossval: %s is an active method: it asks an oracle rather than learning from given triplets", info.Name)
		}
		if slices.ContainsFunc(cfg.Methods[:i], func(o Method) bool { return o.String() == m.String() }) {
			return nil, fmt.Errorf("crossval: method %s given twice", m)
		}
		if _, err := embed.New(m.Name, m.Params); err != nil {
			return nil, fmt.Errorf("crossval: %w", err)
		}
	}
	return dims, nil
}
