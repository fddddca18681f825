//go:build experiment

package main

import "github.com/oe-lab/oe/runner/exp"

func helper() {
	exp.Repeat(nil, 0)
}

func main() {
	helper()
}
