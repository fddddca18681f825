package triplets

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Oracle answers triplet queries from ground-truth points, optionally under
// noise, and counts how many it answered. It is safe for concurrent use;
// under noise, each goroutine should use its own Session so that answers are
// reproducible for a fixed seed.
type Oracle struct {
	x       blas64.General
	noise   Noise
	seed    uint64
	queries atomic.Int64
	mu      sync.Mutex
	shared  *rand.Rand
}

// NewOracle returns an oracle over the rows of x.
func NewOracle(x *mat.Dense, noise Noise, seed uint64) (*Oracle, error) {
	if err := noise.Check(); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	if n < 3 {
		return nil, fmt.Errorf("triplets: oracle needs at least 3 points, have %d", n)
	}
	return &Oracle{x: x.RawMatrix(), noise: noise, seed: seed,
		shared: rand.New(rand.NewPCG(seed, 0x5eed))}, nil
}

// N returns the number of items.
func (o *Oracle) N() int { return o.x.Rows }

// Queries returns the number of queries answered so far.
func (o *Oracle) Queries() int64 { return o.queries.Load() }

// Closer reports whether item i is closer to item j than to item k.
func (o *Oracle) Closer(i, j, k int) bool {
	o.queries.Add(1)
	if o.noise.Model == NoNoise {
		return Closer(o.x, i, j, k, o.noise, nil)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return Closer(o.x, i, j, k, o.noise, o.shared)
}

// Session returns a view of the oracle with its own noise stream, identified
// by stream, for use by one goroutine. Queries still count on the oracle.
func (o *Oracle) Session(stream uint64) *OracleSession {
	return &OracleSession{o: o, rng: rand.New(rand.NewPCG(o.seed, stream))}
}

// OracleSession is a single-goroutine view of an Oracle.
type OracleSession struct {
	o   *Oracle
	rng *rand.Rand
}

// Closer reports whether item i is closer to item j than to item k.
func (s *OracleSession) Closer(i, j, k int) bool {
	s.o.queries.Add(1)
	return Closer(s.o.x, i, j, k, s.o.noise, s.rng)
}
