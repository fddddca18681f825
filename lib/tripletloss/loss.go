package tripletloss

import (
	"math"

	"github.com/oe-lab/oe/lib/internal/numeric"
)

// kind selects the per-triplet loss of a method.
type kind uint8

const (
	kindSOE kind = iota
	kindSTE
	kindTSTE
	kindCKLX
	kindGNMDSX
)

// lossFunc is a method's per-triplet loss with its hyper-parameter.
type lossFunc struct {
	kind kind
	// param is the SOE or GNMDS-x margin, the t-STE degrees of freedom α
	// or the CKL-x μ.
	param float64
}

// coefficients turns the squared distances of a block of triplets,
// dist = (dᵢⱼ, dᵢₖ) pairs, into their gradient coefficients coef =
// (2∂ℓ/∂dᵢⱼ, 2∂ℓ/∂dᵢₖ) pairs — the 2 being ∂dᵢⱼ/∂xᵢ = 2(xᵢ−xⱼ) — and returns
// the block's summed loss. Everything else about the gradient is shared by
// all methods, so a port of the kernel (e.g. to a GPU) needs only the
// per-method functions below. The switch is taken once per block so that
// they inline into the loops.
func (l lossFunc) coefficients(dist, coef []float32) float64 {
	coef = coef[:len(dist)]
	var total float64
	switch l.kind {
	case kindSOE:
		for t := 0; t+1 < len(dist); t += 2 {
			v, a, b := soeTerms(float64(dist[t]), float64(dist[t+1]), l.param)
			total += v
			coef[t], coef[t+1] = float32(2*a), float32(2*b)
		}
	case kindSTE:
		for t := 0; t+1 < len(dist); t += 2 {
			v, a, b := steTerms(float64(dist[t]), float64(dist[t+1]))
			total += v
			coef[t], coef[t+1] = float32(2*a), float32(2*b)
		}
	case kindTSTE:
		for t := 0; t+1 < len(dist); t += 2 {
			v, a, b := tsteTerms(float64(dist[t]), float64(dist[t+1]), l.param)
			total += v
			coef[t], coef[t+1] = float32(2*a), float32(2*b)
		}
	case kindCKLX:
		for t := 0; t+1 < len(dist); t += 2 {
			v, a, b := ckLXTerms(float64(dist[t]), float64(dist[t+1]), l.param)
			total += v
			coef[t], coef[t+1] = float32(2*a), float32(2*b)
		}
	default:
		for t := 0; t+1 < len(dist); t += 2 {
			v, a, b := gnmdsXTerms(float64(dist[t]), float64(dist[t+1]), l.param)
			total += v
			coef[t], coef[t+1] = float32(2*a), float32(2*b)
		}
	}
	return total
}

// The per-method functions return the loss ℓ of one triplet (i, j, k) and
// its partial derivatives with respect to the squared distances
// dij = ‖xᵢ−xⱼ‖² and dik = ‖xᵢ−xₖ‖²: each method's negative log-likelihood
// (STE, t-STE, CKL-x) or hinge (SOE, GNMDS-x), as in paper section 2.

// soeTerms: ℓ = max(0, margin + ‖xᵢ−xⱼ‖ − ‖xᵢ−xₖ‖) on distances, not their
// squares. ∂‖·‖/∂d = 1/(2‖·‖); at a zero distance the hinge's subgradient 0
// is used for that term.
func soeTerms(dij, dik, margin float64) (loss, gij, gik float64) {
	a, b := math.Sqrt(dij), math.Sqrt(dik)
	h := margin + a - b
	// A NaN h (distances overflowed to Inf) passes on into the loss, where
	// Fit reports the divergence.
	if h <= 0 {
		return 0, 0, 0
	}
	if a > 0 {
		gij = 0.5 / a
	}
	if b > 0 {
		gik = -0.5 / b
	}
	return h, gij, gik
}

// steTerms: p = e^−dij / (e^−dij + e^−dik), ℓ = −log p = numeric.Softplus(dij − dik).
func steTerms(dij, dik float64) (loss, gij, gik float64) {
	l, s := numeric.SoftplusSigmoid(dij - dik)
	return l, s, -s
}

// tsteTerms: with the Student-t kernel k(δ) = (1 + δ/α)^(−(α+1)/2),
// ℓ = −log(k(dij)/(k(dij)+k(dik))) = numeric.Softplus(r),
// r = ((α+1)/2)·(log(1+dij/α) − log(1+dik/α)).
func tsteTerms(dij, dik, alpha float64) (loss, gij, gik float64) {
	h := (alpha + 1) / 2
	r := h * (math.Log1p(dij/alpha) - math.Log1p(dik/alpha))
	l, s := numeric.SoftplusSigmoid(r)
	return l, s * h / (alpha + dij), -s * h / (alpha + dik)
}

// ckLXTerms: CKL's probability p = (μ + dik)/(2μ + dij + dik) optimised over
// X directly, ℓ = −log p.
func ckLXTerms(dij, dik, mu float64) (loss, gij, gik float64) {
	den := 2*mu + dij + dik
	num := mu + dik
	return math.Log(den) - math.Log(num), 1 / den, 1/den - 1/num
}

// gnmdsXTerms: GNMDS's hinge on squared distances, ℓ = max(0, margin + dij − dik),
// optimised over X (paper section 2 writes GNMDS's objective so). Its
// trace term λ·tr(K) = λ‖X‖²_F is not per triplet: the kernel adds it
// (kernel.ridge).
func gnmdsXTerms(dij, dik, margin float64) (loss, gij, gik float64) {
	h := margin + dij - dik
	// A NaN h (distances overflowed to Inf) passes on into the loss, where
	// Fit reports the divergence.
	if h <= 0 {
		return 0, 0, 0
	}
	return h, 1, -1
}
