package triplets

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestCheckNames(t *testing.T) {
	for _, tc := range []struct {
		name  string
		names []string
		want  string // "" for valid
	}{
		{"sorted", []string{"B", "a", "a b", "b"}, ""},
		{"empty list", nil, ""},
		{"empty name", []string{"a", ""}, "name 1: empty name"},
		{"unsorted", []string{"b", "a"}, `names 0 and 1 ("b", "a") are not in strictly increasing byte order`},
		{"duplicate", []string{"a", "a"}, `names 0 and 1 ("a", "a")`},
		{"integer", []string{"+7"}, `name 0: name "+7" is an integer`},
		{"line break", []string{"a\nb"}, `name 0: name "a\nb" contains a line break`},
		{"bad UTF-8", []string{"\xc3"}, "is not valid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckNames(tc.names)
			if tc.want == "" {
				if err != nil {
					t.Errorf("unexpected error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestValidateNames(t *testing.T) {
	s := &Set{N: 3, Idx: []int32{0, 1, 2}, Names: []string{"x", "y"}}
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "2 names for N=3 items") {
		t.Errorf("Validate with too few names: %v", err)
	}
	s.Names = []string{"x", "z", "y"}
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "not in strictly increasing byte order") {
		t.Errorf("Validate with unsorted names: %v", err)
	}
	s.Names = []string{"x", "y", "z"}
	if err := s.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if got := s.Slice(0, 1).Names; !slices.Equal(got, s.Names) {
		t.Errorf("Slice lost the names: %q", got)
	}
	if got := s.ItemName(2); got != "z" {
		t.Errorf("ItemName(2) = %q, want z", got)
	}
	if got := (&Set{N: 3}).ItemName(2); got != "2" {
		t.Errorf("numbered ItemName(2) = %q, want 2", got)
	}
}

func TestReadWriteNames(t *testing.T) {
	names := []string{"zinc", " padded", "a,b"}
	var b bytes.Buffer
	if err := WriteNames(&b, names); err != nil {
		t.Fatal(err)
	}
	if b.String() != "zinc\n padded\na,b\n" {
		t.Errorf("wrote %q", b.String())
	}
	got, err := ReadNames(&b, "x.names.txt")
	if err != nil || !slices.Equal(got, names) {
		t.Errorf("read back %q, %v", got, err)
	}
	if got, err := ReadNames(strings.NewReader("a\r\nb"), "crlf"); err != nil || !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("CRLF list: %q, %v", got, err)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"empty line", "a\n\nb\n", "x.txt:2: empty name"},
		{"duplicate", "a\nb\na\n", `x.txt:3: name "a" already on line 1`},
		{"integer", "a\n12\n", `x.txt:2: name "12" is an integer`},
		{"no names", "", "x.txt: no names"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ReadNames(strings.NewReader(tc.in), "x.txt"); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if err := WriteNames(&b, []string{"ok", ""}); err == nil || !strings.Contains(err.Error(), "name 1: empty name") {
		t.Errorf("WriteNames with an empty name: %v", err)
	}
}

func TestRenumber(t *testing.T) {
	s := &Set{N: 3, Idx: []int32{0, 1, 2, 2, 0, 1}, Names: []string{"ash", "elm", "oak"}}
	got, err := s.Renumber([]string{"oak", "pine", "ash", "elm"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{2, 3, 0, 0, 2, 3}; got.N != 4 || got.Names != nil || !slices.Equal(got.Idx, want) {
		t.Errorf("Renumber = N=%d %q %v, want N=4 no names %v", got.N, got.Names, got.Idx, want)
	}
	if _, err := s.Renumber([]string{"ash", "oak"}); err == nil || !strings.Contains(err.Error(), `item "elm" is not among the 2 names`) {
		t.Errorf("missing name: %v", err)
	}
	if _, err := (&Set{N: 3, Idx: []int32{0, 1, 2}}).Renumber([]string{"a"}); err == nil || !strings.Contains(err.Error(), "numbered, not named") {
		t.Errorf("numbered set: %v", err)
	}
}
