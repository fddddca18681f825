package datasets

import (
	"slices"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	want := []string{"aggregation", "compound", "pathbased", "spiral", "birch1", "birch3", "worms",
		"char", "usps", "mnist", "fmnist", "kmnist", "covtype", "gmm", "uniform", "material"}
	if got := Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
}

func TestRegistryEntries(t *testing.T) {
	hexLen := map[string]int{"sha256": 64, "md5": 32}
	for _, name := range Names() {
		s, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if s.N <= 0 || s.Description == "" || (s.Dim <= 0) != (s.Kind == KindComparisons) {
			t.Errorf("%s: incomplete spec %+v", name, s)
		}
		if s.Kind == KindComparisons {
			if s.compare == nil || s.load != nil || s.Synthetic || len(s.Files) == 0 {
				t.Errorf("%s: a dataset of comparisons needs files and a comparisons loader, nothing else", name)
			}
		} else if s.compare != nil {
			t.Errorf("%s: a dataset of points has a comparisons loader", name)
		}
		if s.Synthetic {
			if len(s.Files) != 0 || s.generate == nil {
				t.Errorf("%s: synthetic sets generate points and have no files", name)
			}
			continue
		}
		if len(s.Files) == 0 || (s.load == nil) == (s.compare == nil) || s.Available < s.N {
			t.Errorf("%s: a file-backed set needs files, a loader and Available ≥ N", name)
		}
		for _, f := range s.Files {
			if !strings.HasPrefix(f.URL, "http") || len(f.Sums) == 0 {
				t.Errorf("%s: %s needs a URL and a checksum", name, f.Path)
			}
			for _, c := range f.Sums {
				if len(c.Hex) != hexLen[c.Algo] || strings.Trim(c.Hex, "0123456789abcdef") != "" || c.Source == "" {
					t.Errorf("%s: %s: malformed checksum %+v", name, f.Path, c)
				}
			}
		}
	}
}

func TestLookup(t *testing.T) {
	s, err := Lookup(" FMNIST ")
	if err != nil || s.Name != "fmnist" {
		t.Fatalf("Lookup(\" FMNIST \") = %q, %v", s.Name, err)
	}
	s.Files[0].Path = "edited"
	if again, _ := Lookup("fmnist"); again.Files[0].Path == "edited" {
		t.Error("editing a looked-up Spec changed the registry")
	}
	if _, err := Lookup("mnist2"); err == nil || !strings.Contains(err.Error(), "known: aggregation") {
		t.Errorf("unknown name: error %v, want the list of names", err)
	}
}
