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

// Switch reads a parameter that chooses between two behaviours, 0 (the
// default, described by zero) and 1 (one): it reports whether v is 1, or
// returns an error naming the method, the parameter, both meanings and v.
func Switch(method, name string, v float64, zero, one string) (bool, error) {
	switch v {
	case 0, 1:
		return v == 1, nil
	default:
		return false, fmt.Errorf("%s: %s must be 0 (%s) or 1 (%s), got %v", method, name, zero, one, v)
	}
}
