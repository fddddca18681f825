package session

import "testing"

func TestSetCurrent(t *testing.T) {
	if Current() != nil {
		t.Fatal("a session exists before Set")
	}
	s := &Session{Name: "general", Profile: "smoke"}
	Set(s)
	if Current() != s {
		t.Error("Current is not the session Set")
	}
	Set(nil)
	if Current() != nil {
		t.Error("Set(nil) did not end the session")
	}
}
