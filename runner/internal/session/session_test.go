package session

import (
	"reflect"
	"testing"
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
	for _, k := range []string{"b", "a", "b", "c", "a"} {
		s.Declare(k, "run "+k)
	}
	var got []string
	for _, m := range s.Members() {
		got = append(got, m.Key+"="+m.Declared)
	}
	if want := []string{"b=run b", "a=run a", "c=run c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("members %v, want %v", got, want)
	}
}
