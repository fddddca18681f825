package hostinfo

import (
	"fmt"
	"runtime"
	"testing"
)

func TestCurrentDescribesThisProcess(t *testing.T) {
	h := Current()
	checks := []struct {
		field string
		ok    bool
	}{
		{"OS", h.OS == runtime.GOOS+"/"+runtime.GOARCH},
		{"Cores", h.Cores == runtime.GOMAXPROCS(0)},
		{"GoVersion", h.GoVersion == runtime.Version()},
		{"CPU", h.CPU != ""},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s wrong in %+v", c.field, h)
		}
	}
	if Current() != h {
		t.Error("Current changed between calls")
	}
}

func ExampleCurrent() {
	h := Current()
	fmt.Println(h.OS == runtime.GOOS+"/"+runtime.GOARCH)
	// Output: true
}
