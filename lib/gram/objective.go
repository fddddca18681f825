package gram

import (
	"math"

	"github.com/oe-lab/oe/lib/internal/asm"
	"github.com/oe-lab/oe/lib/internal/numeric"
	"github.com/oe-lab/oe/lib/internal/parallel"
	"github.com/oe-lab/oe/lib/triplets"
)

// lossKind selects the per-triplet loss of a method.
type lossKind int

const (
	// hinge is GNMDS's max(0, 1 + d_ij − d_ik).
	hinge lossKind = iota
	// crowdKernel is CKL's −log p_ijk, p_ijk = (μ + d_ik)/(2μ + d_ij + d_ik).
	crowdKernel
	// logistic is FORTE's log(1 + exp(d_ij − d_ik)).
	logistic
)

// objective is Σ_t ℓ(d_ij, d_ik) + λ·tr(K) over the triplets (i, j, k), where
// i is closer to j than to k and d_ab = K_aa − 2K_ab + K_bb.
type objective struct {
	kind   lossKind
	mu     float64 // CKL's μ > 0
	lambda float64 // trace regulariser λ ≥ 0
}

// term returns ℓ(dij, dik) and its partial derivatives ∂ℓ/∂d_ij, ∂ℓ/∂d_ik.
func (o objective) term(dij, dik float64) (l, a, b float64) {
	switch o.kind {
	case hinge:
		if s := 1 + dij - dik; s > 0 {
			return s, 1, -1
		}
		return 0, 0, 0
	case crowdKernel:
		den := 2*o.mu + dij + dik
		num := o.mu + dik
		return math.Log(den) - math.Log(num), 1 / den, 1/den - 1/num
	default: // logistic
		l, sig := numeric.SoftplusSigmoid(dij - dik)
		return l, sig, -sig
	}
}

// sqDist returns d_ab for the Gram matrix at hand.
type sqDist func(a, b int32) float64

// evaluate returns Σ_t ℓ_t over the triplets [from, to) of s (without the
// trace term). When coef is non-nil it stores ∂ℓ_t/∂d_ij in coef[at[2t]] and
// ∂ℓ_t/∂d_ik in coef[at[2t+1]] for those triplets (at: the pattern's
// coefAt). Work is cut into fixed chunks
// whose partial sums are added in order, so the result does not depend on
// threads.
func (o objective) evaluate(dist sqDist, s *triplets.Set, from, to int, coef []float64, at []int32, threads int) float64 {
	const perChunk = 8192
	if o.kind == logistic {
		return parallel.Sum(threads, to-from, perChunk, func(lo, hi int) float64 {
			return logisticBlock(dist, s, from+lo, from+hi, coef, at)
		})
	}
	return parallel.Sum(threads, to-from, perChunk, func(lo, hi int) float64 {
		sum := 0.0
		for t := from + lo; t < from+hi; t++ {
			i, j, k := s.At(t)
			l, a, b := o.term(dist(i, j), dist(i, k))
			sum += l
			if coef != nil {
				coef[at[2*t]], coef[at[2*t+1]] = a, b
			}
		}
		return sum
	})
}

// logisticBlock is evaluate's loop for FORTE's logistic loss over the
// triplets [from, to): the logits of up to logisticBlockLen triplets first,
// then their softplus and sigmoid four at a time (asm.SoftplusSigmoids, bit
// for bit numeric.SoftplusSigmoid, which term uses), summed in triplet
// order, so the result is term's loop's to the bit, at a quarter of the
// exponentials' and logarithms' cost.
func logisticBlock(dist sqDist, s *triplets.Set, from, to int, coef []float64, at []int32) float64 {
	var z, softplus, sigmoid [logisticBlockLen]float64
	sum := 0.0
	for t0 := from; t0 < to; t0 += logisticBlockLen {
		cnt := min(logisticBlockLen, to-t0)
		for x := 0; x < cnt; x++ {
			i, j, k := s.At(t0 + x)
			z[x] = dist(i, j) - dist(i, k)
		}
		asm.SoftplusSigmoids(z[:cnt], softplus[:cnt], sigmoid[:cnt])
		for x := 0; x < cnt; x++ {
			sum += softplus[x]
			if coef != nil {
				t := t0 + x
				coef[at[2*t]], coef[at[2*t+1]] = sigmoid[x], -sigmoid[x]
			}
		}
	}
	return sum
}

// logisticBlockLen is logisticBlock's batch of logits.
const logisticBlockLen = 256
