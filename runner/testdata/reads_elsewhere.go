//go:build experiment

// Reads the runs of elsewhere.go, as the reproduction script reads cpugpu.go's.
package main

import (
	"fmt"

	"github.com/oe-lab/oe/runner/exp"
)

func main() {
	e := exp.Begin("What did elsewhere find?")
	res := e.Section("elsewhere")
	ok := res.Filter(func(r exp.Result) bool { return r.Status == exp.OK })
	fmt.Printf("elsewhere: %d runs, %d ok\n", len(res), len(ok))
}
