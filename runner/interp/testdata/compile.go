//go:build experiment

package main

func main() {
	x := undefinedThing + 1
	_ = x
}
