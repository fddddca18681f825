//go:build experiment

// An OENN out-of-sample run on MNIST without a stand-in, for runner's test
// of runs stored where their data files are not here any more.
package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("Does a stored out-of-sample run count without its data?")
	e.Extension([]exp.Run{{Dataset: "mnist", N: 40, Dim: 2, Algorithm: "oenn"}}, 0.25, 100)
}
