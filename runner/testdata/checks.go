//go:build experiment

// Checks a finding on the runs of demo.go, as the reproduction script checks
// the paper's on the sections': per λ, once both repetitions are stored.
package main

import (
	"fmt"

	"github.com/oe-lab/oe/runner/exp"
)

func main() {
	e := exp.Begin("Is the fake algorithm's test error low?")
	fake := e.Section("demo").OfAlgorithms("runnerfake")
	v, nums := e.Check("test error below 0.5", func() (exp.Verdict, string) {
		return fake.EveryGroup(func(r exp.Result) string { return "λ " + r.Field("lambda") }, func(rs exp.Results) (bool, string) {
			m := rs.Mean(exp.TestError)
			return m < 0.5, fmt.Sprintf("%.3f", m)
		}, 1)
	})
	e.Text(string(v) + ": " + nums)
}
