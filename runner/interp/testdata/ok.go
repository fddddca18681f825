//go:build experiment

package main

import (
	"fmt"

	"github.com/oe-lab/oe/runner/exp"
)

func main() {
	runs := exp.Repeat([]exp.Run{{Dataset: "char", Algorithm: "soe", Dim: 2}}, 3)
	fmt.Println(len(runs), runs[2].Rep)
}
