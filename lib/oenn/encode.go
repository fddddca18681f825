package oenn

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Encoding is how an item index becomes the input vector of EmbNet.
type Encoding int

const (
	// Binary encodes item i by the bits of π(i), most significant first, as
	// 0/1 values, π a permutation of the items drawn from the run's seed:
	// the paper's binary code of the index, over the items in a random
	// order. The default.
	Binary Encoding = iota
	// Random encodes every item by a vector drawn uniformly from [0, 1)^α,
	// the alternative of the appendix ("On the length of input encoding q").
	Random
	// BinaryIndex encodes item i by the bits of i itself. The paper calls
	// the input "completely arbitrary representations", which index codes
	// are only when the items come in random order: items that come sorted
	// by class or by place (the 2D shape sets, CHAR's files) share their
	// leading bits with their neighbours, so the network places them
	// together before any triplet says so (Aggregation, 788 items, λ =
	// 0.05: Procrustes error 0.18 with BinaryIndex, 1.00 with Binary or
	// Random, a random embedding's). Kept to measure that effect.
	BinaryIndex
)

func (e Encoding) String() string {
	switch e {
	case Binary:
		return "binary"
	case Random:
		return "random"
	case BinaryIndex:
		return "binary index"
	}
	return fmt.Sprintf("Encoding(%d)", int(e))
}

func (e Encoding) check() error {
	if e != Binary && e != Random && e != BinaryIndex {
		return fmt.Errorf("oenn: unknown input encoding %d (0 = binary, 1 = random, 2 = binary index)", int(e))
	}
	return nil
}

// InputLength returns α = ⌈log₂ n⌉, the paper's input length for n items
// (at least 1). The paper writes log without a base; the authors' code uses
// log₂, the base that makes the binary code of every index fit.
func InputLength(n int) int {
	if n <= 2 {
		return 1
	}
	return int(math.Ceil(math.Log2(float64(n))))
}

// Width returns the paper's hidden-layer width w = max(120, 2·d·log₂ n),
// truncated to an integer as in the authors' code.
func Width(n, d int) int {
	if n < 2 {
		return 120
	}
	return max(120, int(2*float64(d)*math.Log2(float64(n))))
}

// codes holds the input vectors of n items.
type codes struct {
	enc    Encoding
	n, len int
	// table holds the codes, n×len, for Binary (the bits of π(i)) and
	// Random; nil for BinaryIndex, whose codes put computes.
	table []float32
}

// newCodes returns the encodings of n items of length length. Binary's
// permutation and Random's codes are drawn from rng.
func newCodes(enc Encoding, n, length int, rng *rand.Rand) (*codes, error) {
	if err := enc.check(); err != nil {
		return nil, err
	}
	if length < 1 {
		return nil, fmt.Errorf("oenn: input length must be ≥ 1, got %d", length)
	}
	if enc != Random && length < 63 && n > 1<<length {
		return nil, fmt.Errorf("oenn: binary codes of length %d cannot tell %d items apart (need ≥ %d)", length, n, InputLength(n))
	}
	c := &codes{enc: enc, n: n, len: length}
	switch enc {
	case Binary:
		c.table = make([]float32, n*length)
		for i, code := range rng.Perm(n) {
			putBits(c.table[i*length:(i+1)*length], code)
		}
	case Random:
		c.table = make([]float32, n*length)
		for i := range c.table {
			c.table[i] = float32(rng.Float64())
		}
	}
	return c, nil
}

// put writes the code of item i into dst (length c.len).
func (c *codes) put(dst []float32, i int) {
	if c.table != nil {
		copy(dst, c.table[i*c.len:(i+1)*c.len])
		return
	}
	putBits(dst, i)
}

// putBits writes the bits of code into dst, most significant first.
func putBits(dst []float32, code int) {
	for b := range dst {
		dst[b] = float32((code >> (len(dst) - 1 - b)) & 1)
	}
}
