package tsne

import "math"

// maxDepth bounds the subdivision of the quadtree. Below it, a cell is
// 2⁻⁶⁴ of the root's side: points that still share a leaf are treated as one
// body at their centre of mass.
const maxDepth = 64

// quadNode is a square cell of the quadtree. Nodes live in one slice and refer
// to each other by index, so the tree is rebuilt every iteration without
// per-node allocation.
type quadNode struct {
	cx, cy   float64 // centre of the square
	half     float64 // half the side length
	mx, my   float64 // centre of mass of the points inside
	count    int32   // number of points inside
	children int32   // index of the first of four children; -1 for a leaf
	first    int32   // a leaf's first point (list continues in quadTree.next); -1 if none
}

// quadTree holds the embedding's points for the Barnes–Hut approximation.
type quadTree struct {
	nodes  []quadNode
	leafOf []int32 // leaf node holding each point
	next   []int32 // next point in the same leaf; -1 ends the list
}

// build replaces the tree's contents by the n points y (x₀, y₀, x₁, y₁, …),
// inserted in index order.
func (t *quadTree) build(y []float64) {
	n := len(y) / 2
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for i := 0; i < n; i++ {
		minX, maxX = min(minX, y[2*i]), max(maxX, y[2*i])
		minY, maxY = min(minY, y[2*i+1]), max(maxY, y[2*i+1])
	}
	// Slightly enlarge the root so that no point lies on its outer boundary.
	half := max(maxX-minX, maxY-minY)/2*(1+1e-9) + 1e-300
	t.nodes = append(t.nodes[:0], quadNode{cx: (minX + maxX) / 2, cy: (minY + maxY) / 2, half: half, children: -1, first: -1})
	t.leafOf = growInt32(t.leafOf, n)
	t.next = growInt32(t.next, n)
	for i := 0; i < n; i++ {
		t.insert(int32(i), y[2*i], y[2*i+1])
	}
}

// growInt32 returns s resized to n, reusing its storage when large enough.
func growInt32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// insert adds point i at (px, py), updating counts and centres of mass along
// its path and splitting the leaf it lands in while that leaf holds points at
// a different position.
func (t *quadTree) insert(i int32, px, py float64) {
	node := int32(0)
	depth := 0
	for {
		nd := &t.nodes[node]
		if nd.children >= 0 {
			nd.addMass(px, py, 1)
			node = nd.children + nd.quadrant(px, py)
			depth++
			continue
		}
		if nd.count == 0 || (nd.mx == px && nd.my == py) || depth >= maxDepth {
			nd.addMass(px, py, 1)
			t.next[i] = nd.first
			nd.first = i
			t.leafOf[i] = node
			return
		}
		// An occupied leaf at a different position: move its points (all at
		// its centre of mass) down into one child, then descend from here.
		t.split(node)
		nd = &t.nodes[node]
		child := nd.children + nd.quadrant(nd.mx, nd.my)
		c := &t.nodes[child]
		c.count, c.mx, c.my, c.first = nd.count, nd.mx, nd.my, nd.first
		nd.first = -1
		for j := c.first; j >= 0; j = t.next[j] {
			t.leafOf[j] = child
		}
	}
}

// split gives leaf node four empty children.
func (t *quadTree) split(node int32) {
	nd := t.nodes[node]
	h := nd.half / 2
	first := int32(len(t.nodes))
	for q := 0; q < 4; q++ {
		cx, cy := nd.cx-h, nd.cy-h
		if q&1 != 0 {
			cx = nd.cx + h
		}
		if q&2 != 0 {
			cy = nd.cy + h
		}
		t.nodes = append(t.nodes, quadNode{cx: cx, cy: cy, half: h, children: -1, first: -1})
	}
	t.nodes[node].children = first
}

// quadrant is the child index (0–3) of the cell that contains (px, py).
func (nd *quadNode) quadrant(px, py float64) int32 {
	var q int32
	if px >= nd.cx {
		q |= 1
	}
	if py >= nd.cy {
		q |= 2
	}
	return q
}

// addMass adds w points at (px, py) to the node's count and centre of mass.
func (nd *quadNode) addMass(px, py float64, w int32) {
	nd.count += w
	f := float64(w) / float64(nd.count)
	nd.mx += (px - nd.mx) * f
	nd.my += (py - nd.my) * f
}

// repulsion returns, for point i, the unnormalised repulsive force
// Σ_j w_ij² (y_i − y_j) and the kernel sum Σ_j w_ij over j ≠ i, where
// w_ij = 1/(1+‖y_i−y_j‖²), with far cells summarised by their centre of mass
// when their side length over the distance to it is below theta. stack is
// scratch space, returned for reuse.
func (t *quadTree) repulsion(i int, y []float64, theta float64, stack []int32) (fx, fy, sumW float64, _ []int32) {
	px, py := y[2*i], y[2*i+1]
	self := t.leafOf[i]
	theta2 := theta * theta
	stack = append(stack[:0], 0)
	for len(stack) > 0 {
		node := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &t.nodes[node]
		if nd.count == 0 {
			continue
		}
		dx, dy := px-nd.mx, py-nd.my
		d2 := dx*dx + dy*dy
		if side := 2 * nd.half; nd.children >= 0 && side*side >= theta2*d2 {
			stack = append(stack, nd.children, nd.children+1, nd.children+2, nd.children+3)
			continue
		}
		m := float64(nd.count)
		if node == self {
			m-- // the point itself is not its own neighbour
		}
		w := 1 / (1 + d2)
		sumW += m * w
		fx += m * w * w * dx
		fy += m * w * w * dy
	}
	return fx, fy, sumW, stack
}
