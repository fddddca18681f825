package tsne

import "github.com/oe-lab/oe/lib/internal/parallel"

// gradientState holds what the KL gradient needs besides the embedding: the
// affinities, the approximation settings and scratch space reused across
// iterations.
type gradientState struct {
	p       affinities
	theta   float64 // Barnes–Hut threshold; ignored when exact
	exact   bool    // O(n²) repulsion instead of the quadtree
	threads int

	tree   quadTree
	attr   []float64 // Σ_j p_ij w_ij (y_i − y_j), two per point
	repel  []float64 // Σ_j w_ij² (y_i − y_j), two per point
	kernel []float64 // Σ_{j≠i} w_ij, one per point
}

func newGradientState(p affinities, theta float64, exact bool, threads int) *gradientState {
	n := len(p.rowPtr) - 1
	return &gradientState{p: p, theta: theta, exact: exact, threads: threads,
		attr: make([]float64, 2*n), repel: make([]float64, 2*n), kernel: make([]float64, n)}
}

// gradient writes into grad the gradient of KL(exaggeration·P ‖ Q) with
// respect to the 2-D points y (x₀, y₀, x₁, y₁, …):
//
//	∂C/∂y_i = 4 Σ_j (exaggeration·p_ij − q_ij) w_ij (y_i − y_j),
//	w_ij = 1/(1+‖y_i−y_j‖²), q_ij = w_ij / Z, Z = Σ_{k≠l} w_kl,
//
// split into the sparse attractive part and the repulsive part, which is exact
// or approximated by the Barnes–Hut quadtree.
func (g *gradientState) gradient(y []float64, exaggeration float64, grad []float64) {
	n := len(y) / 2
	if !g.exact {
		g.tree.build(y)
	}
	parallel.ForWith(g.threads, parallel.Chunks(n, rowsPerTask), newStack, func(stack *[]int32, c int) {
		lo, hi := parallel.Chunk(c, rowsPerTask, n)
		for i := lo; i < hi; i++ {
			g.attr[2*i], g.attr[2*i+1] = g.attraction(i, y)
			if g.exact {
				g.repel[2*i], g.repel[2*i+1], g.kernel[i] = exactRepulsion(i, y)
			} else {
				g.repel[2*i], g.repel[2*i+1], g.kernel[i], *stack = g.tree.repulsion(i, y, g.theta, *stack)
			}
		}
	})
	var z float64
	for _, k := range g.kernel {
		z += k
	}
	for t := range grad {
		grad[t] = 4 * (exaggeration*g.attr[t] - g.repel[t]/z)
	}
}

// newStack returns the scratch stack of one goroutine's quadtree walks.
func newStack() *[]int32 { return new([]int32) }

// attraction is Σ_j p_ij w_ij (y_i − y_j) over the nonzero p_ij of row i.
func (g *gradientState) attraction(i int, y []float64) (fx, fy float64) {
	px, py := y[2*i], y[2*i+1]
	for e := g.p.rowPtr[i]; e < g.p.rowPtr[i+1]; e++ {
		j := g.p.col[e]
		dx, dy := px-y[2*j], py-y[2*j+1]
		f := g.p.val[e] / (1 + dx*dx + dy*dy)
		fx += f * dx
		fy += f * dy
	}
	return fx, fy
}

// exactRepulsion is Σ_{j≠i} w_ij² (y_i − y_j) and Σ_{j≠i} w_ij, in O(n).
func exactRepulsion(i int, y []float64) (fx, fy, sumW float64) {
	px, py := y[2*i], y[2*i+1]
	for j := 0; j < len(y)/2; j++ {
		if j == i {
			continue
		}
		dx, dy := px-y[2*j], py-y[2*j+1]
		w := 1 / (1 + dx*dx + dy*dy)
		sumW += w
		fx += w * w * dx
		fy += w * w * dy
	}
	return fx, fy, sumW
}
