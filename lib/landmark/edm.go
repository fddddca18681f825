package landmark

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// recoverShifts turns the landmarks' rankings of each other into a
// landmark-to-landmark squared-distance matrix E and the per-landmark shifts
// that turn ranking scores into squared distances.
//
// w[a][b] is the score of landmark a in landmark b's ranking. A BTL score is a
// squared distance up to an unknown additive shift per ranking, so the true
// matrix is D[a][b] = w[a][b] + shift[b]. Symmetry of D fixes the shifts up to
// one common constant c: shift[a] − shift[b] = w[a][b] − w[b][a], solved in
// least squares. Writing C for the symmetrised, hollow matrix with the
// centred shifts, D = C + c·(11ᵀ − I). Because the landmarks outnumber d+2,
// D has a null vector orthogonal to 1, which makes c an eigenvalue of C; and
// since D is negative semidefinite on 1⊥, no eigenvalue but the largest can
// exceed c. So c is the second largest eigenvalue of C (LOE, section 3). The
// result is finally projected onto the cone of EDMs to absorb estimation
// noise.
func recoverShifts(w *mat.Dense) (e *mat.SymDense, shift []float64, err error) {
	k, kc := w.Dims()
	if k != kc || k < 3 {
		return nil, nil, fmt.Errorf("landmark: need a square landmark score matrix of size ≥ 3, got %d×%d", k, kc)
	}
	shift = make([]float64, k)
	for a := 0; a < k; a++ {
		var s float64
		for b := 0; b < k; b++ {
			s += w.At(a, b) - w.At(b, a)
		}
		shift[a] = s / float64(k)
	}
	c := mat.NewSymDense(k, nil)
	for a := 0; a < k; a++ {
		for b := a + 1; b < k; b++ {
			c.SetSym(a, b, 0.5*(w.At(a, b)+shift[b]+w.At(b, a)+shift[a]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(c, false) {
		return nil, nil, errors.New("landmark: eigendecomposition of the landmark matrix failed")
	}
	vals := eig.Values(nil) // ascending
	lambda := vals[k-2]
	for a := range shift {
		shift[a] += lambda
	}
	for a := 0; a < k; a++ {
		for b := a + 1; b < k; b++ {
			c.SetSym(a, b, c.At(a, b)+lambda)
		}
	}
	e, err = projectEDM(c)
	return e, shift, err
}

// Dykstra's alternating projection onto the EDM cone stops after this many
// rounds or once successive iterates agree to this relative tolerance (the
// values of the authors' code).
const (
	edmMaxRounds = 1000
	edmTolerance = 1e-10
)

// projectEDM returns the nearest (in Frobenius norm) Euclidean distance
// matrix to x, by Dykstra's algorithm alternating between the subspace of
// symmetric hollow matrices and the cone {X : VXV ⪯ 0}, V = I − 11ᵀ/k
// (Hayden & Wells 1988). A run that has not converged after edmMaxRounds
// still returns its last, hollow iterate: it is close to an EDM and only
// feeds Landmark MDS, which keeps the positive part of the spectrum anyway.
func projectEDM(x *mat.SymDense) (*mat.SymDense, error) {
	k := x.SymmetricDim()
	y := mat.NewSymDense(k, nil)
	y.CopySym(x)
	p := mat.NewSymDense(k, nil)  // Dykstra's correction for the cone
	xh := mat.NewSymDense(k, nil) // hollow iterate
	t := mat.NewSymDense(k, nil)
	for round := 0; round < edmMaxRounds; round++ {
		hollow(xh, y)
		subSym(t, xh, p)
		if err := projectNSDCentred(y, t); err != nil {
			return nil, err
		}
		subSym(p, y, t)
		var diff, scale float64
		for a := 0; a < k; a++ {
			for b := a; b < k; b++ {
				diff = math.Max(diff, math.Abs(y.At(a, b)-xh.At(a, b)))
				scale = math.Max(scale, math.Abs(y.At(a, b)))
			}
		}
		if scale == 0 || diff <= edmTolerance*scale {
			break
		}
	}
	hollow(xh, y)
	return xh, nil
}

// subSym sets dst = a − b.
func subSym(dst, a, b *mat.SymDense) {
	k := a.SymmetricDim()
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			dst.SetSym(i, j, a.At(i, j)-b.At(i, j))
		}
	}
}

// hollow sets dst to x with a zero diagonal (x is already symmetric).
func hollow(dst, x *mat.SymDense) {
	dst.CopySym(x)
	for a := 0; a < x.SymmetricDim(); a++ {
		dst.SetSym(a, a, 0)
	}
}

// projectNSDCentred sets dst to the projection of x onto {X : VXV ⪯ 0}:
// x minus the positive part of VxV.
func projectNSDCentred(dst, x *mat.SymDense) error {
	vxv := centre(x)
	var eig mat.EigenSym
	if !eig.Factorize(vxv, true) {
		return errors.New("landmark: eigendecomposition in the EDM projection failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	dst.CopySym(x)
	for c, l := range vals {
		if l <= 0 {
			continue
		}
		dst.SymRankOne(dst, -l, vecs.ColView(c))
	}
	return nil
}

// centre returns VxV with V = I − 11ᵀ/k (double centring).
func centre(x *mat.SymDense) *mat.SymDense {
	k := x.SymmetricDim()
	row := make([]float64, k)
	var total float64
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			row[a] += x.At(a, b)
		}
		total += row[a]
		row[a] /= float64(k)
	}
	total /= float64(k * k)
	out := mat.NewSymDense(k, nil)
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			out.SetSym(a, b, x.At(a, b)-row[a]-row[b]+total)
		}
	}
	return out
}

// landmarkMDS is Landmark MDS (de Silva & Tenenbaum 2004): classical MDS of
// the landmarks' squared-distance matrix, and a linear map that places any
// item from its squared distances to the landmarks.
type landmarkMDS struct {
	dim  int
	mean []float64   // mean squared distance of each landmark to the landmarks
	proj [][]float64 // proj[c] = q_c / √λ_c, zero where λ_c ≤ 0
}

// newLandmarkMDS factorises −½·VEV and keeps its top dim eigenpairs.
// Directions with a non-positive eigenvalue get coordinate 0: the landmarks
// carry no information along them.
func newLandmarkMDS(e *mat.SymDense, dim int) (*landmarkMDS, error) {
	k := e.SymmetricDim()
	if dim > k-1 {
		return nil, fmt.Errorf("landmark: %d landmarks can span at most %d dimensions, need %d", k, k-1, dim)
	}
	b := centre(e)
	b.ScaleSym(-0.5, b)
	var eig mat.EigenSym
	if !eig.Factorize(b, true) {
		return nil, errors.New("landmark: eigendecomposition in Landmark MDS failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	m := &landmarkMDS{dim: dim, mean: make([]float64, k), proj: make([][]float64, dim)}
	for a := 0; a < k; a++ {
		for c := 0; c < k; c++ {
			m.mean[a] += e.At(a, c)
		}
		m.mean[a] /= float64(k)
	}
	top := vals[k-1]
	for c := 0; c < dim; c++ {
		idx := k - 1 - c
		m.proj[c] = make([]float64, k)
		if !(vals[idx] > 1e-12*math.Abs(top)) {
			continue
		}
		s := 1 / math.Sqrt(vals[idx])
		for a := 0; a < k; a++ {
			m.proj[c][a] = vecs.At(a, idx) * s
		}
	}
	return m, nil
}

// place writes into dst the coordinates of an item whose squared distances to
// the landmarks are f: y_c = −½ · q_cᵀ(f − mean) / √λ_c.
func (m *landmarkMDS) place(dst, f []float64) {
	for c := 0; c < m.dim; c++ {
		var s float64
		for a, v := range f {
			s += m.proj[c][a] * (v - m.mean[a])
		}
		dst[c] = -0.5 * s
	}
}
