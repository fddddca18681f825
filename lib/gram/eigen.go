package gram

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/parallel"
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
	// DefaultOversample(k)); more columns speed convergence when
	// eigenvalues cluster.
	Oversample int
	// Depth is the largest number of blocks of the Krylov basis before a
	// restart (default 3).
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
	// Threads is the number of goroutines of the dense products (≤ 0:
	// GOMAXPROCS); the result does not depend on it.
	Threads int
}

// DefaultOversample is the block columns beyond k that TopEigen adds by
// default, max(4, k/2): the methods' projections to rank d work on blocks of
// d + DefaultOversample(d) columns, whose orthonormalisation is a cost of
// every epoch that grows with n, not with the triplets (runner/plan).
func DefaultOversample(k int) int { return max(4, k/2) }

func (o EigenOptions) withDefaults(k int) EigenOptions {
	if o.Oversample <= 0 {
		o.Oversample = DefaultOversample(k)
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
// operator a, by a restarted block Krylov method: a basis of up to Depth
// blocks [Q, AQ, A²Q, …] (orthonormalised against each other twice), with
// Rayleigh–Ritz on the basis built so far after every block product, until
// the residuals of the k wanted pairs fall below Tol; when the basis has
// Depth blocks without converging, it restarts from the best b Ritz
// vectors. Testing after every product, not only once the basis is full,
// matters for warm starts: a nearly converged start needs one or two
// products, not Depth. warm (n×c, may be nil) supplies the first min(c, b)
// start columns, typically the previous call's Warm; the rest are random.
// When the basis would hold at least denseShare of the matrix's dimension,
// the matrix is formed and solved densely instead.
func TopEigen(a SymOperator, k int, warm *mat.Dense, opt EigenOptions) (*EigenResult, error) {
	return new(eigenWork).topEigen(a, k, warm, opt)
}

// eigenWork holds TopEigen's n×(Depth·b) workspace, so that a run that
// projects thousands of times allocates it once. It is not safe for
// concurrent use.
type eigenWork struct {
	q, aq      mat.Dense // orthonormal Krylov basis, and A times it
	u, au      mat.Dense // Ritz vectors and A times them
	t          *mat.SymDense
	c, pc      mat.Dense // orthonormalize's scratch
	eig        mat.EigenSym
	vecs, y    mat.Dense
	tau, work  []float64 // QR's reflectors and LAPACK workspace
	normBefore []float64
	normAfter  []float64
	prod       denseProduct
}

// reuse returns m resized to r×c and zeroed, reusing its storage when large
// enough.
func reuse(m *mat.Dense, r, c int) *mat.Dense {
	m.Reset()
	m.ReuseAs(r, c)
	return m
}

func (w *eigenWork) topEigen(a SymOperator, k int, warm *mat.Dense, opt EigenOptions) (*EigenResult, error) {
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
	w.prod.threads = parallel.Workers(opt.Threads)
	b := min(k+opt.Oversample, n)
	if float64(opt.Depth*b) >= denseShare*float64(n) {
		return denseTopEigen(a, k, b)
	}
	return w.krylovTopEigen(a, k, warm, opt)
}

// krylovTopEigen is topEigen's Krylov solver, whatever the basis's size
// (opt has its defaults).
func (w *eigenWork) krylovTopEigen(a SymOperator, k int, warm *mat.Dense, opt EigenOptions) (*EigenResult, error) {
	n := a.Size()
	b := min(k+opt.Oversample, n)
	rng := rand.New(rand.NewPCG(opt.Seed, 0x6a09e667f3bcc909))
	m := opt.Depth * b
	q := reuse(&w.q, n, m)
	aq := reuse(&w.aq, n, m)
	u := reuse(&w.u, n, b)
	au := reuse(&w.au, n, b)
	if w.t == nil || w.t.SymmetricDim() != m {
		w.t = mat.NewSymDense(m, nil)
	}
	block := func(x *mat.Dense, i int) *mat.Dense { return x.Slice(0, n, i*b, (i+1)*b).(*mat.Dense) }
	cols := func(x *mat.Dense, c int) *mat.Dense { return x.Slice(0, n, 0, c).(*mat.Dense) }

	q0 := block(q, 0)
	c := 0
	if warm != nil {
		_, wc := warm.Dims()
		c = min(wc, b)
		cols(q0, c).Copy(warm.Slice(0, n, 0, c))
	}
	for j := c; j < b; j++ {
		fillRandom(q0, j, rng)
	}
	if err := w.orthonormalize(q0, nil, rng); err != nil {
		return nil, err
	}
	res := &EigenResult{}
	a.MulTo(block(aq, 0), q0)
	res.Products++

	vals := make([]float64, b)
	filled := 1 // blocks of the basis whose products are known
	for {
		// Rayleigh–Ritz on the filled blocks: T = Qᵀ(AQ), whose new block
		// column is all that changed since the last check. Only its upper
		// triangle is set and read; the lower one differs by rounding.
		mm := filled * b
		j := filled - 1
		w.c.Reset()
		w.prod.mul(&w.c, cols(q, mm), true, block(aq, j))
		for r := 0; r < mm; r++ {
			for s := max(r, j*b) - j*b; s < b; s++ {
				w.t.SetSym(r, j*b+s, w.c.At(r, s))
			}
		}
		if !w.eig.Factorize(w.t.SliceSym(0, mm), true) {
			return nil, errors.New("gram: Rayleigh–Ritz eigendecomposition failed")
		}
		theta := w.eig.Values(nil) // ascending
		w.vecs.Reset()
		w.eig.VectorsTo(&w.vecs)
		// The b largest Ritz pairs, in decreasing order.
		y := reuse(&w.y, mm, b)
		for l := 0; l < b; l++ {
			src := mm - 1 - l
			vals[l] = theta[src]
			for i := 0; i < mm; i++ {
				y.Set(i, l, w.vecs.At(i, src))
			}
		}
		// The residuals need the k wanted pairs only; the other b−k Ritz
		// vectors are formed when they are used (restart or warm start).
		uk, auk := cols(u, k), cols(au, k)
		yk := y.Slice(0, mm, 0, k).(*mat.Dense)
		w.prod.mul(uk, cols(q, mm), false, yk)
		w.prod.mul(auk, cols(aq, mm), false, yk)
		scale := math.Max(math.Abs(theta[0]), math.Abs(theta[mm-1]))
		res.Residual = relResidual(uk, auk, vals[:k], scale)
		res.Converged = res.Residual <= opt.Tol
		done := res.Converged || (filled == opt.Depth && res.Restarts >= opt.MaxRestarts)
		if done || filled == opt.Depth {
			if b > k {
				rest := y.Slice(0, mm, k, b).(*mat.Dense)
				w.prod.mul(u.Slice(0, n, k, b).(*mat.Dense), cols(q, mm), false, rest)
				w.prod.mul(au.Slice(0, n, k, b).(*mat.Dense), cols(aq, mm), false, rest)
			}
		}
		if done {
			res.Values = slices.Clone(vals[:k])
			res.Vectors = mat.DenseCopyOf(uk)
			res.Warm = mat.DenseCopyOf(u)
			return res, nil
		}
		if filled == opt.Depth {
			res.Restarts++
			block(q, 0).Copy(u)
			block(aq, 0).Copy(au)
			filled = 1
			continue
		}
		zi := block(q, filled)
		zi.Copy(block(aq, filled-1))
		if err := w.orthonormalize(zi, cols(q, filled*b), rng); err != nil {
			return nil, err
		}
		a.MulTo(block(aq, filled), zi)
		res.Products++
		filled++
	}
}

// denseShare is the share of the matrix's dimension n at which a Krylov
// basis of Depth·b columns costs more than the dense eigendecomposition
// (gonum's EigenSym, after forming the matrix by n products): measured on
// GNMDS step operators (BenchmarkProjectionPath, medians of 6, loaded
// machine), the Krylov solve wins with bases of 225 columns at n = 500
// (133 against 208 ms) and 375 at n = 600 (267 against 333 ms), and loses
// with 225 at n = 300 (92 against 47 ms) and 375 at n = 400 (246 against
// 128 ms).
const denseShare = 0.7

// relResidual returns max over the first len(vals) columns of
// ‖au_l − vals_l·u_l‖ / scale (0 when scale is 0: A is the zero matrix).
func relResidual(u, au *mat.Dense, vals []float64, scale float64) float64 {
	if scale == 0 {
		return 0
	}
	n, _ := u.Dims()
	sq := make([]float64, len(vals))
	ur, aur := u.RawMatrix(), au.RawMatrix()
	for i := 0; i < n; i++ {
		urow, aurow := ur.Data[i*ur.Stride:], aur.Data[i*aur.Stride:]
		for l, th := range vals {
			r := aurow[l] - th*urow[l]
			sq[l] += r * r
		}
	}
	worst := 0.0
	for _, s := range sq {
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
func (w *eigenWork) orthonormalize(z, basis *mat.Dense, rng *rand.Rand) error {
	n, b := z.Dims()
	const lost = 1e-10 // relative length below which a column is rounding noise
	w.tau = slices.Grow(w.tau[:0], b)[:b]
	for attempt := 0; attempt < 4; attempt++ {
		w.normBefore = colNorms(z, w.normBefore)
		if basis != nil {
			_, bc := basis.Dims()
			c := reuse(&w.c, bc, b)
			pc := reuse(&w.pc, n, b)
			for pass := 0; pass < 2; pass++ {
				w.prod.mul(c, basis, true, z)
				w.prod.mul(pc, basis, false, c)
				z.Sub(z, pc)
			}
		}
		w.normAfter = colNorms(z, w.normAfter)
		refilled := false
		for j, after := range w.normAfter {
			if after <= lost*w.normBefore[j] || after == 0 {
				fillRandom(z, j, rng)
				refilled = true
			}
		}
		if refilled {
			continue
		}
		raw := z.RawMatrix()
		g := blas64.General{Rows: n, Cols: b, Stride: raw.Stride, Data: raw.Data}
		var query [1]float64
		lapack64.Geqrf(g, w.tau, query[:], -1)
		need := int(query[0])
		lapack64.Orgqr(g, w.tau, query[:], -1)
		need = max(need, int(query[0]))
		w.work = slices.Grow(w.work[:0], need)[:need]
		lapack64.Geqrf(g, w.tau, w.work, len(w.work))
		var bad []int
		for j := 0; j < b; j++ {
			if math.Abs(g.Data[j*g.Stride+j]) <= lost*w.normAfter[j] {
				bad = append(bad, j)
			}
		}
		lapack64.Orgqr(g, w.tau, w.work, len(w.work))
		if len(bad) == 0 {
			return nil
		}
		for _, j := range bad {
			fillRandom(z, j, rng)
		}
	}
	return errors.New("gram: could not extend the Krylov basis (block larger than the matrix's range)")
}

// colNorms returns the Euclidean norms of z's columns, in norms' storage.
func colNorms(z *mat.Dense, norms []float64) []float64 {
	_, b := z.Dims()
	norms = slices.Grow(norms[:0], b)[:b]
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
