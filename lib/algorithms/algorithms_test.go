package algorithms_test

import (
	"slices"
	"sort"
	"strings"
	"testing"

	_ "github.com/oe-lab/oe/lib/algorithms"
	"github.com/oe-lab/oe/lib/embed"
)

// Every method says what it is and what each of its parameters means (oerun
// algorithms prints them), and names its parameters when given an unknown one.
func TestEveryMethodIsDocumented(t *testing.T) {
	want := []string{"ckl", "cklx", "forte", "gnmds", "gnmdsx", "lloe", "loe", "oenn", "soe", "ste", "tste"}
	if got := embed.Names(); !slices.Equal(got, want) {
		t.Errorf("registered %v, want %v", got, want)
	}
	for _, name := range embed.Names() {
		t.Run(name, func(t *testing.T) {
			info, err := embed.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			if info.Doc == "" {
				t.Error("no Doc")
			}
			var documented []string
			for k, doc := range info.ParamDocs {
				documented = append(documented, k)
				if strings.TrimSpace(doc) == "" {
					t.Errorf("parameter %s has an empty doc", k)
				}
			}
			sort.Strings(documented)
			if !slices.Equal(documented, info.ParamNames()) {
				t.Errorf("ParamDocs covers %v, Params are %v", documented, info.ParamNames())
			}
			_, err = embed.New(name, embed.Params{"zeta": 1})
			want := "it has none"
			if len(info.Params) > 0 {
				want = "its parameters: " + strings.Join(info.ParamNames(), ", ")
			}
			if err == nil || !strings.Contains(err.Error(), `has no parameter "zeta" (`+want+`)`) {
				t.Errorf("unknown parameter: error %v, want it to list %q", err, want)
			}
		})
	}
}
