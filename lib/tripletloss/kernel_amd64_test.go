//go:build !noasm

package tripletloss

import (
	"context"
	"math"
	"testing"

	"github.com/oe-lab/oe/lib/internal/testpoints"

	"github.com/oe-lab/oe/lib/embed"
)

// guard is the value written around every slice the assembly reads or
// writes, so that a write out of bounds shows (gonum's asm tests do the
// same).
const guard = float32(-7.5e33)

// guarded returns a copy of v with guards of gap entries on each side, and
// the slice of the copy that holds v.
func guarded(v []float32, gap int) (whole, inner []float32) {
	whole = make([]float32, len(v)+2*gap)
	for e := range whole {
		whole[e] = guard
	}
	copy(whole[gap:], v)
	return whole, whole[gap : gap+len(v)]
}

// checkGuards fails t when a guard of whole (gap entries each side) changed.
func checkGuards(t *testing.T, what string, whole []float32, gap int) {
	t.Helper()
	for e := range gap {
		if whole[e] != guard || whole[len(whole)-1-e] != guard {
			t.Fatalf("%s: a guard value changed: written out of bounds", what)
		}
	}
}

// sameBits fails t at the first entry where a and b differ in their bits.
func sameBits(t *testing.T, what string, a, b []float32) {
	t.Helper()
	for e := range a {
		if math.Float32bits(a[e]) != math.Float32bits(b[e]) {
			t.Fatalf("%s: entry %d is %v (%#x) in assembly, %v (%#x) in Go", what, e, a[e], math.Float32bits(a[e]), b[e], math.Float32bits(b[e]))
		}
	}
}

// TestAssemblyMatchesGoTwin holds every AVX2 loop to its Go twin bit for
// bit, with guard values around x, g and the distance output, for row
// lengths with and without padding and for every method's coefficients
// (SOE's include the zeros of inactive hinges).
func TestAssemblyMatchesGoTwin(t *testing.T) {
	if !useAVX2 {
		t.Skip("CPU has no AVX2+FMA: only the Go twins run")
	}
	defer func() { useAVX2 = true }()
	const n, m, gap = 40, 2000, 16
	for _, tc := range allLosses {
		for _, d := range []int{1, 7, 8, 30, 50} {
			x0, idx := smallProblem(n, d, m, 5)
			k, err := newKernel(tc.loss, x0, n, d, 1, 1)
			if err != nil {
				t.Fatal(err)
			}
			xWhole, x := guarded(k.x, gap)
			k.x = x

			dists := func(avx bool) []float32 {
				useAVX2 = avx
				whole, out := guarded(make([]float32, 2*m), gap)
				for b := 0; b < m; b += block {
					cnt := min(block, m-b)
					k.blockDists(idx[3*b:], cnt, out[2*b:2*(b+cnt)])
				}
				checkGuards(t, "distances", whole, gap)
				return out
			}
			dAVX, dGo := dists(true), dists(false)
			sameBits(t, tc.name+" distances", dAVX, dGo)

			coef := make([]float32, 2*m)
			k.loss.coefficients(dGo, coef)
			var heads []headTerm
			var tails []tailTerm
			for t := range m {
				i, j, kk := idx[3*t], idx[3*t+1], idx[3*t+2]
				heads = append(heads, headTerm{i: i, j: j, k: kk, sij: coef[2*t], sik: coef[2*t+1]})
				tails = append(tails, tailTerm{i: i, r: j, s: coef[2*t]}, tailTerm{i: i, r: kk, s: coef[2*t+1]})
			}
			rowBlocks := func(avx bool) []float32 {
				useAVX2 = avx
				whole, g := guarded(make([]float32, len(k.x)), gap)
				k.g = g
				k.scatterHeads(heads)
				k.scatterTails(tails)
				checkGuards(t, "gradient", whole, gap)
				return g
			}
			sameBits(t, tc.name+" head and tail terms", rowBlocks(true), rowBlocks(false))
			fused := func(avx bool) []float32 {
				useAVX2 = avx
				whole, g := guarded(make([]float32, len(k.x)), gap)
				for b := 0; b < m; b += block {
					cnt := min(block, m-b)
					k.blockScatter(g, idx[3*b:3*(b+cnt)], coef[2*b:2*(b+cnt)])
				}
				checkGuards(t, "gradient", whole, gap)
				return g
			}
			sameBits(t, tc.name+" block scatter", fused(true), fused(false))
			checkGuards(t, "embedding", xWhole, gap)
		}
	}
}

// TestFitSameWithAndWithoutAssembly checks that a whole fit gives the same
// embedding bit for bit on the assembly and on the Go twins, for every
// method and both scatters: what lets a run on an AVX2 machine be repeated on any other amd64
// one, or with -tags noasm.
func TestFitSameWithAndWithoutAssembly(t *testing.T) {
	if !useAVX2 {
		t.Skip("CPU has no AVX2+FMA: only the Go twins run")
	}
	defer func() { useAVX2 = true }()
	x := testpoints.Uniform(60, 3, 4)
	train := mustTriplets(t, x, 3000, 5)
	for _, sc := range scatters {
		for _, tc := range []struct {
			name string
			alg  embed.Algorithm
		}{{"soe", &SOE{}}, {"ste", &STE{}}, {"tste", &TSTE{}}, {"cklx", &CKLX{}}} {
			t.Run(sc.name+"/"+tc.name, func(t *testing.T) {
				fit := func(avx bool) (emb []float64) {
					useAVX2 = avx
					sc.with(func() {
						res, err := tc.alg.Fit(context.Background(), embed.Problem{Dim: 5, Train: train}, embed.Options{Seed: 3, MaxEpochs: 30, Threads: 2})
						if err != nil {
							t.Fatal(err)
						}
						emb = res.Embedding.RawMatrix().Data
					})
					return emb
				}
				if e := firstDifference(fit(true), fit(false)); e >= 0 {
					t.Fatalf("entry %d of the embedding differs between assembly and Go", e)
				}
			})
		}
	}
}
