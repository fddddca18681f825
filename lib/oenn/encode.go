package oenn

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Encoding is how an item index becomes the input vector of EmbNet.
type Encoding int

const (
	// Binary encodes item i by the bits of i, most significant first, as 0/1
	// values: the paper's default.
	Binary Encoding = iota
	// Random encodes every item by a vector drawn uniformly from [0, 1)^α,
	// the alternative of the appendix ("On the length of input encoding q").
	Random
)

func (e Encoding) String() string {
	switch e {
	case Binary:
		return "binary"
	case Random:
		return "random"
	}
	return fmt.Sprintf("Encoding(%d)", int(e))
}

func (e Encoding) check() error {
	if e != Binary && e != Random {
		return fmt.Errorf("oenn: unknown input encoding %d (0 = binary, 1 = random)", int(e))
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
	random []float32 // n×len for Random; nil for Binary
}

// newCodes returns the encodings of n items of length length. Random codes
// are drawn from rng.
func newCodes(enc Encoding, n, length int, rng *rand.Rand) (*codes, error) {
	if err := enc.check(); err != nil {
		return nil, err
	}
	if length < 1 {
		return nil, fmt.Errorf("oenn: input length must be ≥ 1, got %d", length)
	}
	if enc == Binary && length < 63 && n > 1<<length {
		return nil, fmt.Errorf("oenn: binary codes of length %d cannot tell %d items apart (need ≥ %d)", length, n, InputLength(n))
	}
	c := &codes{enc: enc, n: n, len: length}
	if enc == Random {
		c.random = make([]float32, n*length)
		for i := range c.random {
			c.random[i] = float32(rng.Float64())
		}
	}
	return c, nil
}

// put writes the code of item i into dst (length c.len).
func (c *codes) put(dst []float32, i int) {
	if c.enc == Random {
		copy(dst, c.random[i*c.len:(i+1)*c.len])
		return
	}
	for b := range dst {
		dst[b] = float32((i >> (c.len - 1 - b)) & 1)
	}
}
