//go:build experiment

package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("Broken")
	e.Run([]exp.Run{{Dataset: "no-such-dataset", Dim: 2, Algorithm: "runnerfake"}})
}
