package exp

import "testing"

func TestAxisValues(t *testing.T) {
	rs := Results{
		{Run: Run{Algorithm: "oenn", N: 64, Params: map[string]float64{"width": 40}}},
		{Run: Run{Algorithm: "oenn", N: 16, Params: map[string]float64{"width": 5}}},
		{Run: Run{Algorithm: "oenn", N: 128, Params: map[string]float64{"width": 10}}},
		{Run: Run{Algorithm: "oenn", N: 16, Params: map[string]float64{"width": 40}}},
	}
	tests := []struct {
		axis string
		want []string
	}{
		{"n", []string{"16", "64", "128"}},
		{"param:width", []string{"5", "10", "40"}},
		{"algorithm", []string{"oenn"}},
	}
	for _, tc := range tests {
		got := axisValues(rs, tc.axis)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.axis, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: %v, want %v", tc.axis, got, tc.want)
				break
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("an unset parameter did not panic")
		}
	}()
	axisValue(rs[0], "param:input")
}
