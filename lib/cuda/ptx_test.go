package cuda

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"os"
	"testing"
)

// TestPTXMatchesSource checks, without nvcc or the cuda tag, that the
// committed kernels.ptx was generated from the kernels.cu beside it: its
// first line records the source's SHA-256 (written by go generate,
// internal/ptxgen). After editing kernels.cu, run go generate ./lib/cuda
// where nvcc is installed; .ci/run also regenerates the PTX there and
// requires it to be unchanged.
func TestPTXMatchesSource(t *testing.T) {
	src, err := os.ReadFile("kernels.cu")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("kernels.ptx")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	first, err := bufio.NewReader(f).ReadString('\n')
	if err != nil {
		t.Fatalf("kernels.ptx: %v", err)
	}
	if want := fmt.Sprintf("// kernels.cu sha256 %x\n", sha256.Sum256(src)); first != want {
		t.Fatalf("kernels.ptx begins %q, want %q: it was not generated from this kernels.cu (go generate ./lib/cuda)", first, want)
	}
}
