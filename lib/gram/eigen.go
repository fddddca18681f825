package gram

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// SymOperator is a symmetric n×n matrix known only through its products with
// blocks of vectors, so that matrices that are cheap to apply but expensive to
// store (low rank plus sparse) can be eigendecomposed.
type SymOperator interface {
	// Size returns n.
	Size() int
	// MulTo sets dst = A·src for n×c matrices dst and src (c ≥ 1). dst and
	// src may be views into larger matrices; they never overlap.
	MulTo(dst, src *mat.Dense)
}

// DenseOperator is a SymOperator over a symmetric matrix held in memory; its
// products are BLAS level-3 calls.
type DenseOperator struct{ A *mat.SymDense }

// Size returns the order of the matrix.
func (o DenseOperator) Size() int { return o.A.SymmetricDim() }

// MulTo sets dst = A·src.
func (o DenseOperator) MulTo(dst, src *mat.Dense) { dst.Mul(o.A, src) }

// EigenOptions tune TopEigen. Zero values mean the defaults.
type EigenOptions struct {
	// Oversample is the number of block columns beyond k (default
	// max(4, k/2)); more columns speed convergence when eigenvalues cluster.
	Oversample int
	// Depth is the number of blocks of the Krylov basis built per restart
	// (default 3).
	Depth int
	// Tol is the convergence threshold on the largest residual of the k
	// wanted pairs, ‖Au − θu‖ ≤ Tol·‖A‖ with ‖A‖ estimated by the extreme
	// Ritz values (default 1e-6).
	Tol float64
	// MaxRestarts bounds the number of restarts (default 200).
	MaxRestarts int
	// Seed seeds the random start columns that fill the block beyond the
	// warm start.
	Seed uint64
}

func (o EigenOptions) withDefaults(k int) EigenOptions {
	if o.Oversample <= 0 {
		o.Oversample = max(4, k/2)
	}
	if o.Depth <= 1 {
		o.Depth = 3
	}
	if o.Tol <= 0 {
		o.Tol = 1e-6
	}
	if o.MaxRestarts <= 0 {
		o.MaxRestarts = 200
	}
	return o
}

// EigenResult is what TopEigen returns.
type EigenResult struct {
	// Values holds the k largest eigenvalues, in decreasing order.
	Values []float64
	// Vectors is n×k; column l is the unit eigenvector of Values[l].
	Vectors *mat.Dense
	// Warm is the whole final block of Ritz vectors (n×b, b ≥ k): the best
	// warm start for the next call on a nearby matrix.
	Warm *mat.Dense
	// Products counts the block products with A, the dominant cost.
	Products int
	// Restarts counts the restarts after the first Krylov basis.
	Restarts int
	// Residual is the largest relative residual ‖Au − θu‖/‖A‖ of the k pairs.
	Residual float64
	// Converged reports whether Residual ≤ Tol; when false the pairs are the
	// best approximations found within MaxRestarts.
	Converged bool
}

// TopEigen returns the k algebraically largest eigenpairs of the symmetric
// operator a, by a restarted block Krylov method: a basis of Depth blocks
// [Q, AQ, A²Q, …] (orthonormalised against each other twice), Rayleigh–Ritz on
// it, and a restart from the best b Ritz vectors until the residuals fall
// below Tol. warm (n×c, may be nil) supplies the first min(c, b) start
// columns, typically the previous call's Warm; the rest are random. When the
// basis would be as large as the matrix, the matrix is formed and solved
// densely instead.
func TopEigen(a SymOperator, k int, warm *mat.Dense, opt EigenOptions) (*EigenResult, error) {
	n := a.Size()
	if k < 1 || k > n {
		return nil, fmt.Errorf("gram: want %d eigenpairs of a %d×%d matrix", k, n, n)
	}
	if warm != nil {
		if r, _ := warm.Dims(); r != n {
			return nil, fmt.Errorf("gram: warm start has %d rows, matrix has %d", r, n)
		}
	}
	opt = opt.withDefaults(k)
	b := min(k+opt.Oversample, n)
	if opt.Depth*b >= n {
		return denseTopEigen(a, k, b)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x6a09e667f3bcc909))
	m := opt.Depth * b
	q := mat.NewDense(n, m, nil)  // orthonormal Krylov basis
	aq := mat.NewDense(n, m, nil) // A times the basis
	block := func(x *mat.Dense, i int) *mat.Dense { return x.Slice(0, n, i*b, (i+1)*b).(*mat.Dense) }

	q0 := block(q, 0)
	c := 0
	if warm != nil {
		_, wc := warm.Dims()
		c = min(wc, b)
		q0.Slice(0, n, 0, c).(*mat.Dense).Copy(warm.Slice(0, n, 0, c))
	}
	for j := c; j < b; j++ {
		for i := 0; i < n; i++ {
			q0.Set(i, j, rng.NormFloat64())
		}
	}
	if err := orthonormalize(q0, nil, rng); err != nil {
		return nil, err
	}
	res := &EigenResult{}
	a.MulTo(block(aq, 0), q0)
	res.Products++

	t := mat.NewSymDense(m, nil)
	var tg mat.Dense
	var eig mat.EigenSym
	var vecs mat.Dense
	u := mat.NewDense(n, b, nil)
	au := mat.NewDense(n, b, nil)
	for {
		for i := 1; i < opt.Depth; i++ {
			zi := block(q, i)
			zi.Copy(block(aq, i-1))
			if err := orthonormalize(zi, q.Slice(0, n, 0, i*b).(*mat.Dense), rng); err != nil {
				return nil, err
			}
			a.MulTo(block(aq, i), zi)
			res.Products++
		}
		// Rayleigh–Ritz: T = Qᵀ(AQ), symmetrised against rounding.
		tg.Mul(q.T(), aq)
		for i := 0; i < m; i++ {
			for j := i; j < m; j++ {
				t.SetSym(i, j, 0.5*(tg.At(i, j)+tg.At(j, i)))
			}
		}
		if !eig.Factorize(t, true) {
			return nil, errors.New("gram: Rayleigh–Ritz eigendecomposition failed")
		}
		theta := eig.Values(nil) // ascending
		eig.VectorsTo(&vecs)
		// The b largest Ritz pairs, in decreasing order.
		y := mat.NewDense(m, b, nil)
		vals := make([]float64, b)
		for l := 0; l < b; l++ {
			src := m - 1 - l
			vals[l] = theta[src]
			for i := 0; i < m; i++ {
				y.Set(i, l, vecs.At(i, src))
			}
		}
		u.Mul(q, y)
		au.Mul(aq, y)
		scale := math.Max(math.Abs(theta[0]), math.Abs(theta[m-1]))
		res.Residual = relResidual(u, au, vals[:k], scale)
		res.Converged = res.Residual <= opt.Tol
		if res.Converged || res.Restarts >= opt.MaxRestarts {
			res.Values = vals[:k:k]
			res.Vectors = mat.DenseCopyOf(u.Slice(0, n, 0, k))
			res.Warm = u
			return res, nil
		}
		res.Restarts++
		block(q, 0).Copy(u)
		block(aq, 0).Copy(au)
	}
}

// relResidual returns max over the first len(vals) columns of
// ‖au_l − vals_l·u_l‖ / scale (0 when scale is 0: A is the zero matrix).
func relResidual(u, au *mat.Dense, vals []float64, scale float64) float64 {
	if scale == 0 {
		return 0
	}
	n, _ := u.Dims()
	worst := 0.0
	for l, th := range vals {
		s := 0.0
		for i := 0; i < n; i++ {
			r := au.At(i, l) - th*u.At(i, l)
			s += r * r
		}
		worst = math.Max(worst, math.Sqrt(s)/scale)
	}
	return worst
}

// orthonormalize replaces the columns of z by an orthonormal basis of their
// span with the columns of basis (orthonormal, may be nil) projected out. The
// projection is applied twice (classical Gram–Schmidt needs the second pass
// for orthogonality to working precision). Columns that vanish, in the
// projection or in the QR factorisation (z was, numerically, inside the span
// already: an invariant subspace was found), are replaced by random
// directions, so the block keeps full rank.
func orthonormalize(z, basis *mat.Dense, rng *rand.Rand) error {
	n, b := z.Dims()
	const lost = 1e-10 // relative length below which a column is rounding noise
	tau := make([]float64, b)
	for attempt := 0; attempt < 4; attempt++ {
		before := colNorms(z)
		if basis != nil {
			for pass := 0; pass < 2; pass++ {
				var c, pc mat.Dense
				c.Mul(basis.T(), z)
				pc.Mul(basis, &c)
				z.Sub(z, &pc)
			}
		}
		after := colNorms(z)
		refilled := false
		for j := range after {
			if after[j] <= lost*before[j] || after[j] == 0 {
				fillRandom(z, j, rng)
				refilled = true
			}
		}
		if refilled {
			continue
		}
		raw := z.RawMatrix()
		g := blas64.General{Rows: n, Cols: b, Stride: raw.Stride, Data: raw.Data}
		work := []float64{0}
		lapack64.Geqrf(g, tau, work, -1)
		work = make([]float64, int(work[0]))
		lapack64.Geqrf(g, tau, work, len(work))
		var bad []int
		for j := 0; j < b; j++ {
			if math.Abs(g.Data[j*g.Stride+j]) <= lost*after[j] {
				bad = append(bad, j)
			}
		}
		work = []float64{0}
		lapack64.Orgqr(g, tau, work, -1)
		work = make([]float64, int(work[0]))
		lapack64.Orgqr(g, tau, work, len(work))
		if len(bad) == 0 {
			return nil
		}
		for _, j := range bad {
			fillRandom(z, j, rng)
		}
	}
	return errors.New("gram: could not extend the Krylov basis (block larger than the matrix's range)")
}

func colNorms(z *mat.Dense) []float64 {
	_, b := z.Dims()
	norms := make([]float64, b)
	for j := range norms {
		norms[j] = mat.Norm(z.ColView(j), 2)
	}
	return norms
}

func fillRandom(z *mat.Dense, j int, rng *rand.Rand) {
	n, _ := z.Dims()
	for i := 0; i < n; i++ {
		z.Set(i, j, rng.NormFloat64())
	}
}

// denseTopEigen forms the operator as a matrix and solves it with LAPACK; it
// serves matrices so small that the Krylov basis would be as large.
func denseTopEigen(a SymOperator, k, b int) (*EigenResult, error) {
	n := a.Size()
	id := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		id.Set(i, i, 1)
	}
	full := mat.NewDense(n, n, nil)
	a.MulTo(full, id)
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, 0.5*(full.At(i, j)+full.At(j, i)))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		return nil, errors.New("gram: dense eigendecomposition failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	order := make([]int, n)
	for i := range order {
		order[i] = n - 1 - i
	}
	sort.SliceStable(order, func(x, y int) bool { return vals[order[x]] > vals[order[y]] })
	warm := mat.NewDense(n, b, nil)
	top := make([]float64, k)
	for l := 0; l < b; l++ {
		for i := 0; i < n; i++ {
			warm.Set(i, l, vecs.At(i, order[l]))
		}
		if l < k {
			top[l] = vals[order[l]]
		}
	}
	return &EigenResult{
		Values:    top,
		Vectors:   mat.DenseCopyOf(warm.Slice(0, n, 0, k)),
		Warm:      warm,
		Products:  1,
		Converged: true,
	}, nil
}
