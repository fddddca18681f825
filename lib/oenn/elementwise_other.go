//go:build !amd64

package oenn

func biasReLU(row, b []float32) { biasReLUGo(row, b) }

func mask(g, act []float32) { maskGo(g, act) }

func sumRows(out, x []float32, rows, stride int) { sumRowsGo(out, x, rows, stride) }
