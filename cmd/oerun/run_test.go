package main

import (
	"reflect"
	"testing"
)

func TestParseInterleaved(t *testing.T) {
	tests := []struct {
		args    []string
		scripts []string
		profile string
		jobs    int
	}{
		{[]string{"experiments/general.go"}, []string{"experiments/general.go"}, "quick", 0},
		{[]string{"experiments/general.go", "--profile", "smoke", "--jobs", "2"}, []string{"experiments/general.go"}, "smoke", 2},
		{[]string{"--profile", "paper", "a.go", "b.go", "--jobs=1"}, []string{"a.go", "b.go"}, "paper", 1},
	}
	for _, tc := range tests {
		fs, f := newScriptFlags("run", "", true)
		scripts, err := parseInterleaved(fs, tc.args)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if !reflect.DeepEqual(scripts, tc.scripts) || f.opt.Profile != tc.profile || f.opt.Jobs != tc.jobs {
			t.Errorf("%v: scripts %v, profile %s, jobs %d", tc.args, scripts, f.opt.Profile, f.opt.Jobs)
		}
	}
}

func TestReportHasNoRunFlags(t *testing.T) {
	fs, _ := newScriptFlags("report", "", false)
	if _, err := parseInterleaved(fs, []string{"x.go", "--jobs", "2"}); err == nil {
		t.Error("report accepted --jobs")
	}
}
