package landmark

import (
	"context"
	"math"
)

// comparisons are one landmark's answered queries: in pair t, item near[t]
// was answered closer to the landmark than item far[t].
type comparisons struct {
	near, far []int32
}

// fitBTL estimates one landmark's ranking scores by maximum likelihood in the
// Bradley–Terry–Luce model P(j closer than k) = σ(score_k − score_j), so that
// scores grow with distance to the landmark. It runs full-batch gradient
// ascent on the summed log-likelihood from all-zero scores, as the authors'
// code does, for at most iters steps of size lr, and stops early — keeping
// the better scores — as soon as a step lowers the likelihood (the step size
// was too large). With noise-free answers the maximum is at infinity, so the
// step count and size act as the regulariser: they are the method's
// hyper-parameters (paper: lr 1e-4). It returns the number of steps taken.
//
// The log-likelihood is concave with a gradient that is (maxDeg/2)-Lipschitz,
// maxDeg the largest number of comparisons of one item (the Hessian is a
// graph Laplacian weighted by σ(1−σ) ≤ ¼). By the descent lemma no step of
// size lr ≤ 4/maxDeg can lower it, so for such rates — the default among
// them — the likelihood is not evaluated at all, which halves the cost.
//
// scores and grad are n-long work slices; prev is too.
func fitBTL(ctx context.Context, cmp comparisons, iters int, lr float64, scores, grad, prev []float64) (int, error) {
	clear(scores)
	deg := grad // borrowed as a counter until the ascent clears it
	clear(deg)
	maxDeg := 0
	for t, j := range cmp.near {
		deg[j]++
		deg[cmp.far[t]]++
		maxDeg = max(maxDeg, int(deg[j]), int(deg[cmp.far[t]]))
	}
	if lr*float64(maxDeg) <= 4 {
		return ascend(ctx, cmp, iters, lr, scores, grad)
	}
	prevLL := math.Inf(-1)
	steps := 0
	for it := 0; it < iters; it++ {
		if it%64 == 0 && ctx.Err() != nil {
			return steps, ctx.Err()
		}
		clear(grad)
		var ll float64
		for t, j := range cmp.near {
			k := cmp.far[t]
			z := scores[k] - scores[j]
			// log σ(z) and σ(−z) from one exponential, stably for both signs.
			e := math.Exp(-math.Abs(z))
			var g float64
			if z >= 0 {
				ll -= math.Log1p(e)
				g = e / (1 + e)
			} else {
				ll += z - math.Log1p(e)
				g = 1 / (1 + e)
			}
			grad[k] += g
			grad[j] -= g
		}
		if math.IsNaN(ll) {
			return steps, errNaN
		}
		if ll < prevLL {
			copy(scores, prev)
			break
		}
		prevLL = ll
		copy(prev, scores)
		for i, g := range grad {
			scores[i] += lr * g
		}
		steps++
	}
	return steps, nil
}

// ascend runs iters gradient-ascent steps without evaluating the
// likelihood, for step sizes that cannot lower it.
func ascend(ctx context.Context, cmp comparisons, iters int, lr float64, scores, grad []float64) (int, error) {
	for it := 0; it < iters; it++ {
		if it%64 == 0 && ctx.Err() != nil {
			return it, ctx.Err()
		}
		clear(grad)
		for t, j := range cmp.near {
			k := cmp.far[t]
			// σ(−z) with z = score_k − score_j.
			g := 1 / (1 + math.Exp(scores[k]-scores[j]))
			grad[k] += g
			grad[j] -= g
		}
		for i, g := range grad {
			s := scores[i] + lr*g
			if math.IsNaN(s) {
				return it, errNaN
			}
			scores[i] = s
		}
	}
	return iters, nil
}
