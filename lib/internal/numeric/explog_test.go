package numeric

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// ulps is the distance between a and b in units in the last place: the
// number of float64 values between them. Equal NaNs and equal infinities
// are 0 apart, anything against a NaN is far.
func ulps(a, b float64) uint64 {
	if a == b || (a != a && b != b) {
		return 0
	}
	if a != a || b != b || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.MaxUint64
	}
	// Map the bits onto a monotone integer line (negative numbers mirrored).
	order := func(x float64) int64 {
		i := int64(math.Float64bits(x))
		if i < 0 {
			return math.MinInt64 - i
		}
		return i
	}
	d := order(a) - order(b)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

// arguments returns a fixed sample of [lo, hi]: a dense grid, random
// points, and every power of two, its negative and their neighbours within
// the range.
func arguments(lo, hi float64) []float64 {
	var xs []float64
	for i := 0; i <= 20000; i++ {
		xs = append(xs, lo+(hi-lo)*float64(i)/20000)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		xs = append(xs, lo+float64((hi-lo)*rng.Float64())) // rounded: the same arguments with or without FMA
	}
	for e := -1074; e <= 1023; e++ {
		p := math.Ldexp(1, e)
		for _, x := range []float64{p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1))} {
			if x >= lo && x <= hi {
				xs = append(xs, x)
			}
			if -x >= lo && -x <= hi {
				xs = append(xs, -x)
			}
		}
	}
	return xs
}

// TestAccuracy holds expNeg and log1pUnit within 2 ulp of package math's
// functions (themselves within 1 ulp of the exact value) over their
// domains, and expNeg's flush below ExpFlush.
func TestAccuracy(t *testing.T) {
	for _, tc := range []struct {
		name      string
		ours, ref func(float64) float64
		lo, hi    float64
	}{
		{"expNeg", expNeg, math.Exp, ExpFlush, 0},
		{"expNeg near 0", expNeg, math.Exp, -1, 0},
		{"log1pUnit", log1pUnit, math.Log1p, 0, 1},
		{"log1pUnit near 0", log1pUnit, math.Log1p, 0, 1e-6},
	} {
		worst, at := uint64(0), 0.0
		for _, x := range arguments(tc.lo, tc.hi) {
			if x == ExpFlush {
				continue
			}
			if u := ulps(tc.ours(x), tc.ref(x)); u > worst {
				worst, at = u, x
			}
		}
		if worst > 2 {
			t.Errorf("%s: %d ulp from package math at %v (%v against %v)", tc.name, worst, at, tc.ours(at), tc.ref(at))
		}
	}
	for _, x := range []float64{ExpFlush, -708.5, -745, -800, math.Inf(-1), math.NaN()} {
		if e := expNeg(x); e != 0 || math.Signbit(e) {
			t.Errorf("expNeg(%v) = %v, want +0", x, e)
		}
	}
	if e := expNeg(0); e != 1 {
		t.Errorf("expNeg(0) = %v, want 1", e)
	}
	if l := log1pUnit(0); l != 0 || math.Signbit(l) {
		t.Errorf("log1pUnit(0) = %v, want +0", l)
	}
}

// TestSameBitsEverywhere pins a digest of SoftplusSigmoid's results on
// 80,000 arguments in [−800, 800]. It uses only correctly rounded IEEE
// operations with no fused multiply-adds, so the digest is the same on
// every architecture; a change of the digest is a change of results (bump
// the versions of the methods that use it: lib/tripletloss's STE and t-STE,
// lib/gram's FORTE).
func TestSameBitsEverywhere(t *testing.T) {
	h := sha256.New()
	var buf [8]byte
	for _, z := range arguments(-800, 800) {
		l, s := SoftplusSigmoid(z)
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(l))
		h.Write(buf[:])
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(s))
		h.Write(buf[:])
	}
	const want = "6f08c851bdf3ece5cc32a2180404913b75d7ae3f19172f479efa7db17d9615e4"
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != want {
		t.Errorf("digest of SoftplusSigmoid = %s, want %s", got, want)
	}
}

func BenchmarkSoftplusSigmoid(b *testing.B) {
	zs := make([]float64, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range zs {
		zs[i] = 8 * rng.NormFloat64()
	}
	var sink float64
	b.Run("numeric", func(b *testing.B) {
		for b.Loop() {
			for _, z := range zs {
				l, s := SoftplusSigmoid(z)
				sink += l + s
			}
		}
	})
	b.Run("math", func(b *testing.B) {
		for b.Loop() {
			for _, z := range zs {
				e := math.Exp(-math.Abs(z))
				sink += math.Log1p(e) + 1/(1+e)
			}
		}
	})
	_ = sink
}
