package embed

import (
	"reflect"
	"testing"
)

func TestParseMethod(t *testing.T) {
	for _, tc := range []struct {
		spec    string
		name    string
		params  Params
		bad     bool
		written string
	}{
		{spec: "soe", name: "soe", written: "soe"},
		{spec: " cklx:mu=0.05:init=1 ", name: "cklx", params: Params{"mu": 0.05, "init": 1}, written: "cklx:init=1:mu=0.05"},
		{spec: "tste:alpha=1e-3", name: "tste", params: Params{"alpha": 0.001}, written: "tste:alpha=0.001"},
		{spec: "", bad: true},
		{spec: ":mu=1", bad: true},
		{spec: "cklx:mu", bad: true},
		{spec: "cklx:=1", bad: true},
		{spec: "cklx:mu=x", bad: true},
	} {
		name, p, err := ParseMethod(tc.spec)
		if tc.bad {
			if err == nil {
				t.Errorf("ParseMethod(%q) accepted: %s %v", tc.spec, name, p)
			}
			continue
		}
		if err != nil || name != tc.name || !reflect.DeepEqual(p, tc.params) {
			t.Errorf("ParseMethod(%q) = %s, %v, %v; want %s, %v", tc.spec, name, p, err, tc.name, tc.params)
		}
		if got := MethodString(name, p); got != tc.written {
			t.Errorf("MethodString(%s, %v) = %q, want %q", name, p, got, tc.written)
		}
	}
}
