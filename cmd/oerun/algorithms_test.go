package main

import (
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/embed"
)

// oerun algorithms lists every method with its kind, backends and each
// parameter's default and meaning (from the registry).
func TestAlgorithmsCommand(t *testing.T) {
	stdout, stderr, code := cli(t, "algorithms")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, name := range embed.Names() {
		info, _ := embed.Lookup(name)
		kind := "passive"
		if info.Active {
			kind = "active"
		}
		want := []string{name + "  " + info.Doc + "\n  " + kind}
		for _, p := range info.ParamNames() {
			want = append(want, "--param "+p+"=", info.ParamDocs[p])
		}
		for _, w := range want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s: output lacks %q", name, w)
			}
		}
	}
	for _, w := range []string{"soe  Soft Ordinal Embedding", "runs on cpu, cuda; version ", "--param margin=1 "} {
		if !strings.Contains(stdout, w) {
			t.Errorf("output lacks %q:\n%s", w, stdout)
		}
	}
	for _, tc := range []struct{ name, want string }{
		{"oenn", "resumable on the cpu: "},
		{"soe", "resumable on the cpu with adam: "},
		{"forte", ""},
	} {
		_, entry, _ := strings.Cut(stdout, "\n"+tc.name+"  ")
		entry, _, _ = strings.Cut(entry, "\n\n")
		if got := strings.Contains(entry, "resumable on the cpu"); got != (tc.want != "") || !strings.Contains(entry, tc.want) {
			t.Errorf("%s's entry %q: want it to say %q", tc.name, entry, tc.want)
		}
	}
	_, ste, _ := strings.Cut(stdout, "\nste  ")
	if ste, _, _ = strings.Cut(ste, "\n\n"); !strings.HasSuffix(ste, "\n  no parameters") {
		t.Errorf("ste's entry %q does not say it has no parameters", ste)
	}
	stdout, _, code = cli(t, "algorithms", "loe")
	if code != 0 || !strings.HasPrefix(stdout, "loe  ") || strings.Contains(stdout, "soe") {
		t.Errorf("algorithms loe: exit %d:\n%s", code, stdout)
	}
	if _, stderr, code := cli(t, "algorithms", "nope"); code != 1 || !strings.Contains(stderr, `unknown algorithm "nope"`) {
		t.Errorf("algorithms nope: exit %d, stderr %q", code, stderr)
	}
}
