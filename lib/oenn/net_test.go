package oenn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refLoss is an independent float64 implementation of EmbNet and the mean
// triplet hinge loss, written with plain loops, used to check forward and
// backward of the float32 code.
func refLoss(net *embNet, params []float64, x [][]float64, tri [][3]int) float64 {
	sizes := []int{net.in, net.width, net.width, net.width, net.dim}
	embed := func(in []float64) []float64 {
		off := 0
		v := in
		for l := 0; l < len(sizes)-1; l++ {
			a, b := sizes[l], sizes[l+1]
			w, bias := params[off:off+a*b], params[off+a*b:off+a*b+b]
			off += a*b + b
			out := make([]float64, b)
			for o := 0; o < b; o++ {
				s := bias[o]
				for i := 0; i < a; i++ {
					s += v[i] * w[i*b+o]
				}
				if l < hiddenLayers {
					s = math.Max(s, 0)
				}
				out[o] = s
			}
			v = out
		}
		return v
	}
	var sum float64
	for _, t := range tri {
		yi, yj, yk := embed(x[t[0]]), embed(x[t[1]]), embed(x[t[2]])
		var dij, dik float64
		for c := range yi {
			dij += (yi[c] - yj[c]) * (yi[c] - yj[c])
			dik += (yi[c] - yk[c]) * (yi[c] - yk[c])
		}
		sum += math.Max(0, dij-dik+margin)
	}
	return sum / float64(len(tri))
}

// TestGradient compares the analytic gradient of forward/hinge/backward with
// central differences of the float64 reference loss.
func TestGradient(t *testing.T) {
	cases := []struct {
		name             string
		in, width, dim   int
		items, nTriplets int
	}{
		{"d=2", 4, 7, 2, 12, 20},
		{"d=5 wide", 3, 16, 5, 8, 30},
		{"d=1", 2, 5, 1, 4, 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(tc.width)))
			net := newEmbNet(tc.in, tc.width, tc.dim)
			net.initialize(rng)
			// Scale the weights up so that most hinges are active.
			for i := range net.params {
				net.params[i] *= 2
			}
			x := make([][]float64, tc.items)
			ws := net.newWorkspace(tc.items, 0)
			for r := range x {
				x[r] = make([]float64, tc.in)
				for c := range x[r] {
					v := rng.Float64()
					x[r][c] = float64(float32(v))
					ws.x[r*tc.in+c] = float32(v)
				}
			}
			tri := make([][3]int, tc.nTriplets)
			rows := make([]int32, 0, 3*tc.nTriplets)
			for i := range tri {
				p := rng.Perm(tc.items)
				tri[i] = [3]int{p[0], p[1], p[2]}
				rows = append(rows, int32(p[0]), int32(p[1]), int32(p[2]))
			}

			net.forward(ws, tc.items)
			sum := hinge(ws.y[:tc.items*tc.dim], tc.dim, rows, 1/float32(len(tri)), ws.dy[:tc.items*tc.dim])
			net.backward(ws, tc.items)

			params := make([]float64, len(net.params))
			for i, v := range net.params {
				params[i] = float64(v)
			}
			if got, want := sum/float64(len(tri)), refLoss(net, params, x, tri); math.Abs(got-want) > 1e-4*math.Max(1, want) {
				t.Fatalf("loss %v, reference %v", got, want)
			}
			if sum == 0 {
				t.Fatal("no active hinge: the check would be vacuous")
			}
			const h = 1e-5
			var maxErr, maxG float64
			for i := range params {
				p0 := params[i]
				params[i] = p0 + h
				up := refLoss(net, params, x, tri)
				params[i] = p0 - h
				down := refLoss(net, params, x, tri)
				params[i] = p0
				num := (up - down) / (2 * h)
				maxErr = math.Max(maxErr, math.Abs(num-float64(ws.grad[i])))
				maxG = math.Max(maxG, math.Abs(num))
			}
			if maxErr > 1e-3*math.Max(1, maxG) {
				t.Errorf("max |analytic − numeric| = %g (max |gradient| %g)", maxErr, maxG)
			}
		})
	}
}

func TestCodes(t *testing.T) {
	tests := []struct {
		name    string
		enc     Encoding
		n, len  int
		item    int
		want    []float32
		wantErr bool
	}{
		{"binary index 5 of 8", BinaryIndex, 8, 3, 5, []float32{1, 0, 1}, false},
		{"binary index 0", BinaryIndex, 8, 3, 0, []float32{0, 0, 0}, false},
		{"binary index msb first", BinaryIndex, 16, 4, 1, []float32{0, 0, 0, 1}, false},
		{"binary index too short", BinaryIndex, 9, 3, 0, nil, true},
		{"binary too short", Binary, 9, 3, 0, nil, true},
		{"zero length", Random, 4, 0, 0, nil, true},
		{"unknown encoding", Encoding(7), 4, 2, 0, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := newCodes(tc.enc, tc.n, tc.len, rand.New(rand.NewPCG(1, 1)))
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			got := make([]float32, tc.len)
			c.put(got, tc.item)
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("code = %v, want %v", got, tc.want)
				}
			}
		})
	}
	// Binary codes are the bits of a permutation of the items: every code
	// below n once, most significant bit first, in another order than the
	// items'.
	const n, length = 100, 7
	perm, err := newCodes(Binary, n, length, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	inOrder := 0
	for i := 0; i < n; i++ {
		bits := make([]float32, length)
		perm.put(bits, i)
		code := 0
		for _, b := range bits {
			if b != 0 && b != 1 {
				t.Fatalf("binary code %v of item %d is not made of bits", bits, i)
			}
			code = 2*code + int(b)
		}
		if code >= n || seen[code] {
			t.Fatalf("item %d got code %d: not a permutation of 0..%d", i, code, n-1)
		}
		seen[code] = true
		if code == i {
			inOrder++
		}
	}
	if inOrder > 5 {
		t.Errorf("%d of %d items keep their own index as code: the permutation leaves the order", inOrder, n)
	}
	// Random codes lie in [0, 1) and differ between items.
	c, err := newCodes(Random, 50, 6, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	a, b := make([]float32, 6), make([]float32, 6)
	c.put(a, 3)
	c.put(b, 4)
	same := true
	for i := range a {
		if a[i] < 0 || a[i] >= 1 {
			t.Fatalf("random code value %v outside [0, 1)", a[i])
		}
		same = same && a[i] == b[i]
	}
	if same {
		t.Fatal("two items got the same random code")
	}
}

func TestWidthAndInputLength(t *testing.T) {
	tests := []struct {
		n, d, width, inLen int
	}{
		{1000, 2, 120, 10},    // 2·2·log₂1000 ≈ 39.9 < 120
		{1024, 2, 120, 10},    // powers of two need exactly log₂ n bits
		{1797, 30, 648, 11},   // CHAR: 2·30·log₂1797 ≈ 648.7
		{60000, 50, 1587, 16}, // MNIST-sized
		{2, 1, 120, 1},
	}
	for _, tc := range tests {
		if got := Width(tc.n, tc.d); got != tc.width {
			t.Errorf("Width(%d, %d) = %d, want %d", tc.n, tc.d, got, tc.width)
		}
		if got := InputLength(tc.n); got != tc.inLen {
			t.Errorf("InputLength(%d) = %d, want %d", tc.n, got, tc.inLen)
		}
	}
}
