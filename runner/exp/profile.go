package exp

import (
	"github.com/oe-lab/oe/runner/internal/session"
)

// Profile is the scale an experiment runs at (`oerun --profile`).
type Profile string

// Profiles: Smoke finishes in seconds (CI runs every script so), Quick
// reproduces the whole paper in under an hour on two cores (the default of
// make reproduce), Paper runs at the paper's full scale.
const (
	Smoke Profile = "smoke"
	Quick Profile = "quick"
	Paper Profile = "paper"
)

// CurrentProfile returns the profile the script runs under.
func CurrentProfile() Profile { return Profile(current().Profile) }

// pick returns smoke, quick or paper according to the profile.
func pick[T any](smoke, quick, paper T) T {
	switch CurrentProfile() {
	case Smoke:
		return smoke
	case Paper:
		return paper
	}
	return quick
}

// Pick returns smoke, quick or paper according to the profile.
func Pick(smoke, quick, paper int) int { return pick(smoke, quick, paper) }

// PickFloat is Pick for real numbers.
func PickFloat(smoke, quick, paper float64) float64 { return pick(smoke, quick, paper) }

// PickList is Pick for lists (datasets, algorithms, swept values).
func PickList(smoke, quick, paper []string) []string { return pick(smoke, quick, paper) }

// PickFloats is Pick for lists of numbers.
func PickFloats(smoke, quick, paper []float64) []float64 { return pick(smoke, quick, paper) }

func current() *session.Session {
	s := session.Current()
	if s == nil {
		panic("exp: no experiment session: run scripts with `oerun experiments/<name>.go`")
	}
	return s
}
