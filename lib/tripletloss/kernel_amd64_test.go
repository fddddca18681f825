package tripletloss

import "testing"

// The AVX2 block loops must agree with the portable ones: the loss and the
// violation count up to rounding (the distance sums run in another order),
// the gradient to float32 precision, for row lengths with and without
// padding and for every method.
func TestAVX2MatchesPortable(t *testing.T) {
	if !useAVX2 {
		t.Skip("CPU has no AVX2+FMA: only the portable loops run here")
	}
	defer func() { useAVX2 = true }()
	for _, tc := range allLosses {
		for _, d := range []int{1, 7, 8, 30, 50} {
			x, idx := smallProblem(40, d, 2000, 5)
			k, err := newKernel(tc.loss, x, 40, d, 1, 1)
			if err != nil {
				t.Fatal(err)
			}
			gSIMD := make([]float32, len(k.x))
			gGo := make([]float32, len(k.x))
			useAVX2 = true
			lSIMD, vSIMD := k.accumulate(idx, gSIMD), k.violations(idx)
			useAVX2 = false
			lGo, vGo := k.accumulate(idx, gGo), k.violations(idx)
			if !close(lGo, lSIMD, 1e-5) {
				t.Errorf("%s d=%d: loss Go %v, AVX2 %v", tc.name, d, lGo, lSIMD)
			}
			if diff := vGo - vSIMD; diff < -2 || diff > 2 {
				t.Errorf("%s d=%d: violations Go %d, AVX2 %d", tc.name, d, vGo, vSIMD)
			}
			for e := range gGo {
				if !close(float64(gGo[e]), float64(gSIMD[e]), 1e-3) {
					t.Fatalf("%s d=%d: gradient entry %d: Go %v, AVX2 %v", tc.name, d, e, gGo[e], gSIMD[e])
				}
			}
		}
	}
}
