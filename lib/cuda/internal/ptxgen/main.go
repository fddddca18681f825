// Command ptxgen regenerates lib/cuda's kernels.ptx from kernels.cu: it
// runs nvcc and writes its PTX after a first line that records the SHA-256
// of the kernels.cu it was made from, which lib/cuda's tests compare with
// the kernels.cu beside it, without nvcc. Run it through
//
//	go generate ./lib/cuda
//
// from lib/cuda (go generate's working directory).
package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
)

// nvccArgs compiles for compute capability 7.0 (Volta), PTX ISA 7.8 with
// nvcc 11.8, without fused multiply-adds (see lib/cuda's doc.go).
var nvccArgs = []string{"-ptx", "-arch=compute_70", "-fmad=false", "-o", "-", "kernels.cu"}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "ptxgen:", err)
		os.Exit(1)
	}
}

func run() error {
	src, err := os.ReadFile("kernels.cu")
	if err != nil {
		return err
	}
	var ptx, stderr bytes.Buffer
	cmd := exec.Command("nvcc", nvccArgs...)
	cmd.Stdout, cmd.Stderr = &ptx, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("nvcc %v: %w\n%s", nvccArgs, err, stderr.Bytes())
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "// kernels.cu sha256 %x\n", sha256.Sum256(src))
	out.Write(ptx.Bytes())
	return os.WriteFile("kernels.ptx", out.Bytes(), 0o644)
}
