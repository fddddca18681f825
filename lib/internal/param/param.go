// Package param checks and resolves the hyper-parameters of oe's methods:
// the checks every method makes, worded one way. Errors start with the
// method's name, as its own errors do (e.g. "soe: margin must be finite and
// > 0, got -1").
package param

import (
	"fmt"
	"math"
)

// Positive returns nil when v is finite and > 0, else an error naming the
// method, the parameter and v.
func Positive(method, name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("%s: %s must be finite and > 0, got %v", method, name, v)
	}
	return nil
}

// NonNegative returns nil when v is finite and ≥ 0, else an error naming the
// method, the parameter and v.
func NonNegative(method, name string, v float64) error {
	if !(v >= 0) || math.IsInf(v, 0) {
		return fmt.Errorf("%s: %s must be finite and ≥ 0, got %v", method, name, v)
	}
	return nil
}

// OrDefault returns v, or def when v is zero: the meaning of a zero
// hyper-parameter field.
func OrDefault[T int | float64](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}
