package plan

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/job"
)

func TestFilter(t *testing.T) {
	// Items: n where given, the paper's size of the dataset where 0 (CHAR:
	// 1,797; USPS: 7,291, lib/datasets).
	runs := []job.Config{
		{Dataset: "char", N: 0, Algorithm: "soe"},
		{Dataset: "uniform", N: 2000, Algorithm: "oenn"},
		{Dataset: "usps", N: 0, Algorithm: "ste"},
		{Dataset: "fmnist", StandsInFor: "covtype", N: 60000, Algorithm: "soe", Backend: job.CUDA},
	}
	tests := []struct {
		name string
		f    Filter
		want []bool // kept, per run
	}{
		{"zero keeps all", Filter{}, []bool{true, true, true, true}},
		{"up to 2,000 items", Filter{MaxItems: 2000}, []bool{true, true, false, false}},
		{"up to USPS's size", Filter{MaxItems: 7291}, []bool{true, true, true, false}},
		{"some methods", Filter{Algorithms: []string{"soe", "ste"}}, []bool{true, false, true, true}},
		{"methods left out", Filter{Exclude: []string{"oenn"}}, []bool{true, false, true, true}},
		{"the GPU's runs", Filter{Backend: job.CUDA}, []bool{false, false, false, true}},
		{"the CPU's runs", Filter{Backend: job.CPU}, []bool{true, true, true, false}},
		{"some datasets", Filter{Datasets: []string{"char", "uniform"}}, []bool{true, true, false, false}},
		{"a dataset stood in for", Filter{Datasets: []string{"covtype"}}, []bool{false, false, false, true}},
		{"the dataset standing in", Filter{Datasets: []string{"fmnist"}}, []bool{false, false, false, true}},
		{"all three", Filter{Algorithms: []string{"soe", "oenn"}, Exclude: []string{"oenn"}, MaxItems: 7291}, []bool{true, false, false, false}},
	}
	for _, tc := range tests {
		var pend []execute.Pending
		for i, c := range runs {
			got := tc.f.Keep(c)
			if got != tc.want[i] {
				t.Errorf("%s: Keep(%s on %s, n %d) = %v, want %v", tc.name, c.Algorithm, c.Dataset, c.N, got, tc.want[i])
			}
			pend = append(pend, execute.Pending{Job: job.Canonical{Config: c, Key: fmt.Sprint(i)}})
		}
		kept, left := tc.f.Apply(pend)
		var wantKept, wantLeft []string
		for i, k := range tc.want {
			if k {
				wantKept = append(wantKept, fmt.Sprint(i))
			} else {
				wantLeft = append(wantLeft, fmt.Sprint(i))
			}
		}
		if !slices.Equal(keys(kept), wantKept) || !slices.Equal(keys(left), wantLeft) {
			t.Errorf("%s: Apply kept %v, left %v; want %v, %v", tc.name, keys(kept), keys(left), wantKept, wantLeft)
		}
		if tc.f.IsZero() != (tc.name == "zero keeps all") {
			t.Errorf("%s: IsZero %v", tc.name, tc.f.IsZero())
		}
	}
}

func TestParseDatasets(t *testing.T) {
	tests := []struct {
		list, want, wantErr string
	}{
		{"uniform,covtype", "uniform covtype", ""},
		{" CHAR , usps,char,", "char usps", ""},
		{"", "", ""},
		{"uniform,nosuch", "", `plan: dataset "nosuch": want one of aggregation, `},
	}
	for _, tc := range tests {
		got, err := ParseDatasets(tc.list)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseDatasets(%q) error %v, want %q", tc.list, err, tc.wantErr)
			}
			continue
		}
		if err != nil || strings.Join(got, " ") != tc.want {
			t.Errorf("ParseDatasets(%q) = %q, %v; want %q", tc.list, got, err, tc.want)
		}
	}
	if got := (Filter{Datasets: []string{"uniform", "covtype"}, MaxItems: 100000}).String(); got != "--datasets uniform,covtype --max-items 100000" {
		t.Errorf("String() = %q", got)
	}
}

func TestParseAlgorithms(t *testing.T) {
	tests := []struct {
		list, want, wantErr string
	}{
		{"soe,ste", "soe ste", ""},
		{" SOE , oenn,soe,", "soe oenn", ""},
		{"", "", ""},
		{"soe,nosuch", "", `plan: embed: unknown algorithm "nosuch" (known: `},
	}
	for _, tc := range tests {
		got, err := ParseAlgorithms(tc.list)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseAlgorithms(%q) error %v, want %q", tc.list, err, tc.wantErr)
			}
			continue
		}
		if err != nil || strings.Join(got, " ") != tc.want {
			t.Errorf("ParseAlgorithms(%q) = %v, %v; want %q", tc.list, got, err, tc.want)
		}
	}
}

// A campaign's filter: the runs of at most USPS's size, OENN left out.
func ExampleFilter() {
	exclude, _ := ParseAlgorithms("oenn")
	f := Filter{Exclude: exclude, MaxItems: 7291}
	for _, c := range []job.Config{
		{Dataset: "usps", Algorithm: "soe"},
		{Dataset: "usps", Algorithm: "oenn"},
		{Dataset: "mnist", Algorithm: "soe"},
	} {
		fmt.Printf("%s on %s (%d items): %v\n", c.Algorithm, c.Dataset, Items(c), f.Keep(c))
	}
	fmt.Println(f)
	// Output:
	// soe on usps (7291 items): true
	// oenn on usps (7291 items): false
	// soe on mnist (60000 items): false
	// --exclude-algorithms oenn --max-items 7291
}

func TestParseBackend(t *testing.T) {
	for in, want := range map[string]string{"cpu": job.CPU, "CUDA": job.CUDA, " gpu ": job.CUDA} {
		if got, err := ParseBackend(in); err != nil || got != want {
			t.Errorf("ParseBackend(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if got := (Filter{MaxItems: 5000, Backend: job.CUDA}).String(); got != "--max-items 5000 --backend cuda" {
		t.Errorf("String() = %q", got)
	}
	for _, in := range []string{"", "auto", "tpu"} {
		if _, err := ParseBackend(in); err == nil || !strings.Contains(err.Error(), "want cpu or cuda") {
			t.Errorf("ParseBackend(%q): error %v, want one naming cpu and cuda", in, err)
		}
	}
}
