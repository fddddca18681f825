package optim

import (
	"math"
	"testing"
)

// refAdam is torch.optim.Adam's update written out in float64, one
// parameter at a time, as the reference the float32 implementation must track.
func refAdam(x0 float64, grads []float64, lr float64, amsgrad bool) float64 {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	x, m, v, vmax := x0, 0.0, 0.0, 0.0
	for t, g := range grads {
		step := float64(t + 1)
		m = b1*m + (1-b1)*g
		v = b2*v + (1-b2)*g*g
		vmax = math.Max(vmax, v)
		den := v
		if amsgrad {
			den = vmax
		}
		bc1 := 1 - math.Pow(b1, step)
		bc2 := 1 - math.Pow(b2, step)
		x -= lr / bc1 * m / (math.Sqrt(den)/math.Sqrt(bc2) + eps)
	}
	return x
}

func TestAdamMatchesReference(t *testing.T) {
	tests := []struct {
		name    string
		amsgrad bool
		lr      float64
		grads   []float64
	}{
		{"amsgrad falling gradients", true, 1, []float64{10, 5, 1, 0.1, -0.2, 0.05}},
		{"plain falling gradients", false, 1, []float64{10, 5, 1, 0.1, -0.2, 0.05}},
		{"amsgrad small lr", true, 0.01, []float64{-3, 2, -1, 4}},
		{"zero gradient", true, 1, []float64{0, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := NewAdam[float32](1, tc.lr)
			if err != nil {
				t.Fatal(err)
			}
			a.AMSGrad = tc.amsgrad
			x := []float32{0.5}
			for _, g := range tc.grads {
				if err := a.Step(x, []float32{float32(g)}); err != nil {
					t.Fatal(err)
				}
			}
			want := refAdam(0.5, tc.grads, tc.lr, tc.amsgrad)
			if math.Abs(float64(x[0])-want) > 1e-5*math.Max(1, math.Abs(want)) {
				t.Errorf("x = %v, want %v", x[0], want)
			}
			if a.Steps() != len(tc.grads) {
				t.Errorf("Steps() = %d, want %d", a.Steps(), len(tc.grads))
			}
		})
	}
}

// AMSGrad must take a smaller step than plain Adam once the gradient shrinks
// after a large one: that is its whole point.
func TestAMSGradDampsAfterLargeGradient(t *testing.T) {
	grads := []float64{100, 0.01, 0.01, 0.01}
	ams := refAdam(0, grads, 1, true)
	plain := refAdam(0, grads, 1, false)
	if math.Abs(ams) >= math.Abs(plain) {
		t.Fatalf("|AMSGrad move| %v should be below |Adam move| %v", ams, plain)
	}
}

func TestAdamRangesEqualWholeStep(t *testing.T) {
	whole, _ := NewAdam[float32](6, 0.5)
	split, _ := NewAdam[float32](6, 0.5)
	x1 := []float32{1, 2, 3, 4, 5, 6}
	x2 := append([]float32(nil), x1...)
	g := []float32{0.1, -2, 3, 0, 5, -6}
	for range 3 {
		if err := whole.Step(x1, g); err != nil {
			t.Fatal(err)
		}
		if err := split.NextStep(); err != nil {
			t.Fatal(err)
		}
		split.UpdateRange(x2[4:], g[4:], 4)
		split.UpdateRange(x2[:4], g[:4], 0)
	}
	for e := range x1 {
		if x1[e] != x2[e] {
			t.Fatalf("element %d: whole step %v, ranged step %v", e, x1[e], x2[e])
		}
	}
}

func TestAdamMinimisesQuadratic(t *testing.T) {
	a, _ := NewAdam[float32](2, 0.1)
	x := []float32{3, -4}
	g := make([]float32, 2)
	for range 500 {
		g[0], g[1] = 2*x[0], 2*x[1]
		if err := a.Step(x, g); err != nil {
			t.Fatal(err)
		}
	}
	if math.Abs(float64(x[0])) > 0.05 || math.Abs(float64(x[1])) > 0.05 {
		t.Fatalf("Adam did not reach the minimum of |x|²: x = %v", x)
	}
}

func TestAdamRejectsBadSettings(t *testing.T) {
	tests := []struct {
		name string
		size int
		lr   float64
	}{
		{"NaN lr", 1, math.NaN()},
		{"Inf lr", 1, math.Inf(1)},
		{"zero lr", 1, 0},
		{"negative lr", 1, -1},
		{"negative size", -1, 1},
	}
	for _, tc := range tests {
		if _, err := NewAdam[float32](tc.size, tc.lr); err == nil {
			t.Errorf("%s: NewAdam[float32](%d, %v) accepted", tc.name, tc.size, tc.lr)
		}
	}
	a, _ := NewAdam[float32](1, 1)
	a.Beta2 = 1
	if err := a.NextStep(); err == nil {
		t.Error("β₂ = 1 accepted")
	}
	if err := a.Step([]float32{1, 2}, []float32{1, 2}); err == nil {
		t.Error("Step with the wrong size accepted")
	}
}

// TestConstantsReproduceUpdate replays UpdateRange from Constants alone, as
// lib/cuda's Adam kernel does, and requires the same bits.
func TestConstantsReproduceUpdate(t *testing.T) {
	for _, amsgrad := range []bool{true, false} {
		ref, err := NewAdam[float32](3, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		ref.AMSGrad = amsgrad
		sched, err := NewAdam[float32](0, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		sched.AMSGrad = amsgrad
		x := []float32{1, -2, 0.25}
		y := append([]float32(nil), x...)
		var m, v, vmax [3]float32
		for _, g := range [][]float32{{3, -1, 0}, {0.5, 2, -4}, {-0.1, 0, 7}} {
			if err := ref.Step(x, g); err != nil {
				t.Fatal(err)
			}
			if err := sched.NextStep(); err != nil {
				t.Fatal(err)
			}
			k := sched.Constants()
			if k.AMSGrad != amsgrad {
				t.Fatalf("Constants().AMSGrad = %v, want %v", k.AMSGrad, amsgrad)
			}
			for e, ge := range g {
				m[e] = k.Beta1*m[e] + (1-k.Beta1)*ge
				v[e] = k.Beta2*v[e] + (1-k.Beta2)*ge*ge
				den := v[e]
				if k.AMSGrad {
					vmax[e] = max(vmax[e], v[e])
					den = vmax[e]
				}
				y[e] -= k.StepSize * m[e] / (float32(math.Sqrt(float64(den)))/k.BC2Sqrt + k.Eps)
			}
		}
		for e := range x {
			if math.Float32bits(x[e]) != math.Float32bits(y[e]) {
				t.Errorf("amsgrad=%v: parameter %d: UpdateRange %v, replay from Constants %v", amsgrad, e, x[e], y[e])
			}
		}
	}
}

// TestAdam64 checks the float64 optimiser against the float64 reference
// (PyTorch's rule spelled out, refAdam) to rounding, and that DeltaRange
// gives exactly the amounts UpdateRange subtracts.
func TestAdam64(t *testing.T) {
	grads := []float64{10, 5, 1, 0.1, -0.2, 0.05}
	a, err := NewAdam[float64](1, 1)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewAdam[float64](1, 1)
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.5}
	for _, g := range grads {
		before := x[0]
		if err := a.Step(x, []float64{g}); err != nil {
			t.Fatal(err)
		}
		if err := d.NextStep(); err != nil {
			t.Fatal(err)
		}
		delta := []float64{0}
		d.DeltaRange(delta, []float64{g}, 0)
		if got := before - delta[0]; got != x[0] {
			t.Fatalf("DeltaRange: x − δ = %v, UpdateRange gives %v", got, x[0])
		}
	}
	if want := refAdam(0.5, grads, 1, true); math.Abs(x[0]-want) > 1e-14 {
		t.Errorf("x = %v, float64 reference %v", x[0], want)
	}
}

// TestAdamStateResumes checks that an optimiser given another's state (as
// a checkpoint keeps it) takes the same steps as the one it came from, bit
// for bit, and that a state of the wrong size is refused.
func TestAdamStateResumes(t *testing.T) {
	grads := [][]float32{{0.1, -2, 3}, {1, 0.5, -0.25}, {-3, 2, 0}, {0.7, -0.7, 4}, {2, 2, -1}}
	for _, amsgrad := range []bool{true, false} {
		orig, _ := NewAdam[float32](3, 0.05)
		orig.AMSGrad = amsgrad
		x := []float32{1, -1, 0.5}
		var saved AdamState[float32]
		var xSaved []float32
		for s, g := range grads {
			if s == 2 {
				st := orig.State()
				saved = AdamState[float32]{Steps: st.Steps, M: append([]float32(nil), st.M...),
					V: append([]float32(nil), st.V...), VMax: append([]float32(nil), st.VMax...)}
				xSaved = append([]float32(nil), x...)
			}
			if err := orig.Step(x, g); err != nil {
				t.Fatal(err)
			}
		}
		resumed, _ := NewAdam[float32](3, 0.05)
		resumed.AMSGrad = amsgrad
		if err := resumed.SetState(saved); err != nil {
			t.Fatal(err)
		}
		for _, g := range grads[2:] {
			if err := resumed.Step(xSaved, g); err != nil {
				t.Fatal(err)
			}
		}
		if resumed.Steps() != orig.Steps() {
			t.Errorf("amsgrad %v: %d steps after resuming, want %d", amsgrad, resumed.Steps(), orig.Steps())
		}
		for i := range x {
			if x[i] != xSaved[i] {
				t.Errorf("amsgrad %v: parameter %d is %v after resuming, %v without a break", amsgrad, i, xSaved[i], x[i])
			}
		}
	}
	a, _ := NewAdam[float32](3, 0.05)
	if err := a.SetState(AdamState[float32]{Steps: 1, M: make([]float32, 2), V: make([]float32, 3)}); err == nil {
		t.Error("a state with 2 first moments for 3 parameters: no error")
	}
	if a.Steps() != 0 {
		t.Errorf("a refused state changed the step count to %d", a.Steps())
	}
}
