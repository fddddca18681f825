package cpufeature

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestAgreesWithKernel compares the flags with what Linux reports in
// /proc/cpuinfo, which also accounts for the OS saving the register state.
func TestAgreesWithKernel(t *testing.T) {
	if !detected {
		if AVX2FMA || AVX512 {
			t.Fatalf("AVX2FMA=%v AVX512=%v without detection (%s, or the noasm tag), want false", AVX2FMA, AVX512, runtime.GOARCH)
		}
		t.Skipf("no detection on %s or with the noasm tag", runtime.GOARCH)
	}
	if runtime.GOOS != "linux" {
		t.Skipf("no /proc/cpuinfo to compare with on %s", runtime.GOOS)
	}
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("cannot read /proc/cpuinfo: %v", err)
	}
	var flags map[string]bool
	for _, line := range strings.Split(string(info), "\n") {
		name, value, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(name) == "flags" {
			flags = map[string]bool{}
			for _, f := range strings.Fields(value) {
				flags[f] = true
			}
			break
		}
	}
	if flags == nil {
		t.Skip("/proc/cpuinfo has no flags line")
	}
	if want := flags["avx2"] && flags["fma"]; AVX2FMA != want {
		t.Errorf("AVX2FMA = %v, /proc/cpuinfo says avx2 && fma = %v", AVX2FMA, want)
	}
	if want := flags["avx2"] && flags["fma"] && flags["avx512f"]; AVX512 != want {
		t.Errorf("AVX512 = %v, /proc/cpuinfo says avx512f = %v", AVX512, want)
	}
}
