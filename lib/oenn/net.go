package oenn

import (
	"math"
	"math/rand/v2"

	"github.com/oe-lab/oe/lib/internal/asm"
	"github.com/oe-lab/oe/lib/internal/parallel"
)

// hiddenLayers is the number of fully connected ReLU layers of EmbNet; the
// paper fixes it to 3 (appendix, "Choice of parameters").
const hiddenLayers = 3

// layer is one affine map y = x·W + b of EmbNet. W is in×out, row-major; w
// and b are views into the network's flat parameter slice so that the
// optimiser can treat all parameters as one vector.
type layer struct {
	in, out int
	w, b    []float32
}

// embNet is the paper's EmbNet: three fully connected hidden layers of width
// `width` with ReLU, then a linear output layer of size dim. The three
// weight-shared copies of the OENN architecture are not materialised: the
// gradient of the shared weights is the sum over copies, which is what one
// backward pass over the batch's distinct items computes.
type embNet struct {
	in, width, dim int
	params         []float32
	layers         [hiddenLayers + 1]layer
}

// newEmbNet allocates a network with zero parameters.
func newEmbNet(in, width, dim int) *embNet {
	net := &embNet{in: in, width: width, dim: dim}
	sizes := [hiddenLayers + 2]int{in, width, width, width, dim}
	total := 0
	for l := range net.layers {
		total += sizes[l]*sizes[l+1] + sizes[l+1]
	}
	net.params = make([]float32, total)
	net.layers = viewLayers(net.params, sizes)
	return net
}

// viewLayers cuts p into the weight and bias views of the layers whose
// sizes are given (layer l maps sizes[l] → sizes[l+1]).
func viewLayers(p []float32, sizes [hiddenLayers + 2]int) [hiddenLayers + 1]layer {
	var ls [hiddenLayers + 1]layer
	off := 0
	for l := range ls {
		in, out := sizes[l], sizes[l+1]
		ls[l] = layer{in: in, out: out, w: p[off : off+in*out], b: p[off+in*out : off+in*out+out]}
		off += in*out + out
	}
	return ls
}

// gradLayers returns views of g with the same layout as the parameters.
func (net *embNet) gradLayers(g []float32) [hiddenLayers + 1]layer {
	return viewLayers(g, [hiddenLayers + 2]int{net.in, net.width, net.width, net.width, net.dim})
}

// initialize draws every weight and bias uniformly from ±1/√fan_in, PyTorch's
// default for nn.Linear, which the authors' code relies on.
func (net *embNet) initialize(rng *rand.Rand) {
	for _, l := range net.layers {
		bound := 1 / math.Sqrt(float64(l.in))
		for i := range l.w {
			l.w[i] = float32((2*rng.Float64() - 1) * bound)
		}
		for i := range l.b {
			l.b[i] = float32((2*rng.Float64() - 1) * bound)
		}
	}
}

// workspace holds the activations of one forward/backward pass over up to
// rows items, allocated once per run so that training allocates nothing
// per batch.
type workspace struct {
	rows int
	// threads is the goroutines of the passes (parallel.Workers: ≤ 0 is
	// GOMAXPROCS); results do not depend on it.
	threads int
	x       []float32                   // rows×in: input codes
	h       [hiddenLayers][]float32     // rows×width: post-ReLU activations
	y       []float32                   // rows×dim: embeddings
	dy      []float32                   // rows×dim: ∂loss/∂y
	da      [2][]float32                // rows×width: ∂loss/∂(pre-activation), alternating
	grad    []float32                   // same layout as the parameters
	gl      [hiddenLayers + 1]layer     // views of grad
	hl      [hiddenLayers + 1][]float32 // inputs of each layer: x, h[0], h[1], h[2]
	mm      *gemm                       // the matrix products' packing buffers
}

func (net *embNet) newWorkspace(rows, threads int) *workspace {
	ws := &workspace{rows: rows, threads: threads}
	ws.x = make([]float32, rows*net.in)
	for i := range ws.h {
		ws.h[i] = make([]float32, rows*net.width)
	}
	ws.y = make([]float32, rows*net.dim)
	ws.dy = make([]float32, rows*net.dim)
	ws.da[0] = make([]float32, rows*net.width)
	ws.da[1] = make([]float32, rows*net.width)
	ws.grad = make([]float32, len(net.params))
	ws.mm = newGemm(bestKernel(), threads)
	ws.gl = net.gradLayers(ws.grad)
	ws.hl = [hiddenLayers + 1][]float32{ws.x, ws.h[0], ws.h[1], ws.h[2]}
	return ws
}

// forward maps the first r rows of ws.x to ws.y, keeping the activations for
// backward.
func (net *embNet) forward(ws *workspace, r int) {
	for l, ly := range net.layers {
		src := ws.hl[l][:r*ly.in]
		var dst []float32
		if l < hiddenLayers {
			dst = ws.h[l][:r*ly.out]
		} else {
			dst = ws.y[:r*ly.out]
		}
		ws.mm.mul(r, ly.out, ly.in, matrix{data: src, stride: ly.in}, matrix{data: ly.w, stride: ly.out}, dst, ly.out)
		addBias(dst, ly.b, l < hiddenLayers, ws.threads)
	}
}

// addBias adds b to every row of x and, if relu is set, clamps negative
// entries to zero, on threads goroutines.
func addBias(x, b []float32, relu bool, threads int) {
	parallel.ForChunks(threads, len(x)/len(b), 64, func(_, r0, r1 int) {
		for i := r0; i < r1; i++ {
			row := x[i*len(b) : (i+1)*len(b)]
			if relu {
				asm.BiasReLU(row, b)
			} else {
				for j, v := range row {
					row[j] = v + b[j]
				}
			}
		}
	})
}

// maskReLU zeroes the entries of grad where the ReLU output act is zero:
// ReLU passes no gradient there.
func maskReLU(grad, act []float32, threads int) {
	parallel.ForChunks(threads, len(act), 1<<14, func(_, lo, hi int) { asm.MaskReLU(grad[lo:hi], act[lo:hi]) })
}

// columnSums writes the sums of the columns of x (rows of len(sums)
// entries) into sums; each worker sums whole blocks of columns, in row
// order.
func columnSums(sums, x []float32, threads int) {
	cols := len(sums)
	rows := len(x) / cols
	clear(sums)
	const colBlock = 64
	parallel.ForChunks(threads, cols, colBlock, func(_, c0, c1 int) {
		asm.SumRows(sums[c0:c1], x[c0:], rows, cols)
	})
}

// backward computes ws.grad, the gradient of the loss with respect to the
// parameters, from ∂loss/∂y in the first r rows of ws.dy and the activations
// that forward left in ws.
func (net *embNet) backward(ws *workspace, r int) {
	delta := ws.dy[:r*net.dim] // ∂loss/∂(output of layer l before ReLU)
	for l := hiddenLayers; l >= 0; l-- {
		ly, g := net.layers[l], ws.gl[l]
		src := ws.hl[l][:r*ly.in]
		// ∂W = srcᵀ·delta, ∂b = column sums of delta.
		ws.mm.mul(ly.in, ly.out, r, matrix{data: src, stride: ly.in, trans: true}, matrix{data: delta, stride: ly.out}, g.w, ly.out)
		columnSums(g.b, delta, ws.threads)
		if l == 0 {
			break // the input codes are constants: no gradient needed
		}
		// ∂(layer input) = delta·Wᵀ, masked by the ReLU that produced it.
		next := ws.da[l%2][:r*ly.in]
		ws.mm.mul(r, ly.in, ly.out, matrix{data: delta, stride: ly.out}, matrix{data: ly.w, stride: ly.out, trans: true}, next, ly.in)
		maskReLU(next, src, ws.threads)
		delta = next
	}
}
