package tripletloss

import (
	"math"

	"github.com/oe-lab/oe/lib/internal/asm"
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
	case kindSTE, kindTSTE:
		total = l.logistic(dist, coef)
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

// logistic is coefficients for STE and t-STE, whose losses are the softplus
// of a logit: per block of triplets the logits first, then their softplus
// and sigmoid four at a time (asm.SoftplusSigmoids), then the
// coefficients. The results are steTerms' and tsteTerms', bit for bit.
func (l lossFunc) logistic(dist, coef []float32) float64 {
	var logit, softplus, sigmoid [block]float64
	var total float64
	m := len(dist) / 2
	for b := 0; b < m; b += block {
		cnt := min(block, m-b)
		d := dist[2*b : 2*(b+cnt)]
		c := coef[2*b : 2*(b+cnt)]
		if l.kind == kindSTE {
			for t := range cnt {
				logit[t] = float64(d[2*t]) - float64(d[2*t+1])
			}
		} else {
			for t := range cnt {
				logit[t] = tsteLogit(float64(d[2*t]), float64(d[2*t+1]), l.param)
			}
		}
		asm.SoftplusSigmoids(logit[:cnt], softplus[:cnt], sigmoid[:cnt])
		for t := range cnt {
			total += softplus[t]
			if l.kind == kindSTE {
				c[2*t], c[2*t+1] = float32(2*sigmoid[t]), float32(2*-sigmoid[t])
			} else {
				a, b := tsteGradients(sigmoid[t], float64(d[2*t]), float64(d[2*t+1]), l.param)
				c[2*t], c[2*t+1] = float32(2*a), float32(2*b)
			}
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

// steTerms: p = e^−dij / (e^−dij + e^−dik), ℓ = −log p = softplus(dij − dik).
func steTerms(dij, dik float64) (loss, gij, gik float64) {
	l, s := numeric.SoftplusSigmoid(dij - dik)
	return l, s, -s
}

// tsteTerms: with the Student-t kernel k(δ) = (1 + δ/α)^(−(α+1)/2),
// ℓ = −log(k(dij)/(k(dij)+k(dik))) = softplus(r),
// r = ((α+1)/2)·(log(1+dij/α) − log(1+dik/α)).
func tsteTerms(dij, dik, alpha float64) (loss, gij, gik float64) {
	l, s := numeric.SoftplusSigmoid(tsteLogit(dij, dik, alpha))
	gij, gik = tsteGradients(s, dij, dik, alpha)
	return l, gij, gik
}

// tsteLogit is t-STE's r.
func tsteLogit(dij, dik, alpha float64) float64 {
	return (alpha + 1) / 2 * (math.Log1p(dij/alpha) - math.Log1p(dik/alpha))
}

// tsteGradients are t-STE's ∂ℓ/∂dij and ∂ℓ/∂dik from the sigmoid s of r.
func tsteGradients(s, dij, dik, alpha float64) (gij, gik float64) {
	h := (alpha + 1) / 2
	return s * h / (alpha + dij), -s * h / (alpha + dik)
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
