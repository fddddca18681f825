package session

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/oe-lab/oe/runner/job"
)

func TestSetCurrent(t *testing.T) {
	if Current() != nil {
		t.Fatal("a session exists before Set")
	}
	s := &Session{Name: "reproduction", Profile: "smoke"}
	if prev := Set(s); prev != nil || Current() != s {
		t.Fatalf("Set returned %v, Current is %v", prev, Current())
	}
	// A required script's session replaces the requiring one's until it ends.
	sub := &Session{Name: "general", Profile: "smoke", Parent: s}
	prev := Set(sub)
	if prev != s || Current() != sub {
		t.Errorf("nested Set returned %v, Current is %v", prev, Current())
	}
	Set(prev)
	if Current() != s {
		t.Error("restoring the previous session failed")
	}
	Set(nil)
	if Current() != nil {
		t.Error("Set(nil) did not end the session")
	}
	if got, want := (&Session{Name: "noise", Parent: sub}).Requires(), []string{"reproduction", "general", "noise"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Requires = %v, want %v", got, want)
	}
}

func TestDeclareKeepsFirstPlace(t *testing.T) {
	s := &Session{}
	for i, k := range []string{"b", "a", "b", "c", "a"} {
		s.Declare(Declaration{Job: job.Canonical{Key: k}, Declared: "run " + k, Dataset: fmt.Sprint("set", i)})
	}
	var got []string
	for _, m := range s.Members() {
		got = append(got, m.Key+"="+m.Declared+" on "+m.Dataset)
	}
	if want := []string{"b=run b on set0", "a=run a on set1", "c=run c on set3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("members %v, want %v", got, want)
	}
	if d := s.Declared(); len(d) != 3 || d[2].Job.Key != "c" {
		t.Errorf("declared %+v, want b, a, c", d)
	}
}
