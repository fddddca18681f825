//go:build experiment

// Reads the runs of demo.go, as the reproduction script reads the sections'.
package main

import (
	"fmt"

	"github.com/oe-lab/oe/runner/exp"
)

func main() {
	e := exp.Begin("What did the demo find?")
	res := e.Section("demo")
	ok := res.Filter(func(r exp.Result) bool { return r.Status == exp.OK })
	fmt.Printf("demo: %d runs, %d ok, lambdas %v, n %v\n", len(res), len(ok), res.Distinct("lambda"), res.Distinct("n"))
	e.Table("Test error", res.Table("algorithm", "lambda", exp.TestError))
}
