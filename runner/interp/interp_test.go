package interp

import (
	"bytes"
	"context"
	"fmt"
	"go/constant"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestRunReportsScriptPositions(t *testing.T) {
	tests := []struct {
		script  string
		wantErr string // "" for success
		wantOut string
	}{
		{"ok.go", "", "3 2\n"},
		{"panic.go", "testdata/panic.go:8:2: panic: exp: Repeat with 0 repetitions", ""},
		{"compile.go", "testdata/compile.go:6:7: undefined: undefinedThing", ""},
		{"notag.go", "testdata/notag.go:1:1: script lacks the build constraint //go:build experiment (so that go build ./... skips it)", ""},
	}
	for _, tc := range tests {
		t.Run(tc.script, func(t *testing.T) {
			var out bytes.Buffer
			err := Run(context.Background(), filepath.Join("testdata", tc.script), &out, &out)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
				t.Fatalf("error = %v, want %q", err, tc.wantErr)
			}
			if tc.wantOut != "" && out.String() != tc.wantOut {
				t.Errorf("output %q, want %q", out.String(), tc.wantOut)
			}
		})
	}
}

// TestSymbolsUpToDate checks the committed yaegi symbols of every package
// named in symbols/symbols.go's go:generate line against the package as
// compiled now: every exported name must have its entry, constants their
// current value, and no entry may name something that no longer exists. Run
// `go generate ./runner/interp/symbols` when it fails. (Regenerating with
// yaegi extract in the test would type-check all of gonum from source, a
// minute of CPU; the compiled export data answers the same question.)
func TestSymbolsUpToDate(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("symbols", "symbols.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract -name symbols (.+)$`).FindSubmatch(src)
	if m == nil {
		t.Fatal("symbols.go has no yaegi extract go:generate line")
	}
	for _, pkg := range strings.Fields(string(m[1])) {
		name := strings.NewReplacer("/", "-", ".", "_", "~", "_").Replace(pkg) + ".go"
		committed, err := os.ReadFile(filepath.Join("symbols", name))
		if err != nil {
			t.Fatalf("%v: run go generate ./runner/interp/symbols", err)
		}
		want := expectedEntries(t, pkg)
		got := map[string]string{}
		entry := regexp.MustCompile(`(?m)^\s*"([^"]+)":\s*(.*),$`)
		for _, e := range entry.FindAllStringSubmatch(string(committed), -1) {
			got[e[1]] = e[2]
		}
		for k, w := range want {
			g, ok := got[k]
			switch {
			case !ok:
				t.Errorf("symbols/%s lacks %s: run go generate ./runner/interp/symbols", name, k)
			case w != "" && g != w:
				t.Errorf("symbols/%s: %s = %s, now %s: run go generate ./runner/interp/symbols", name, k, g, w)
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("symbols/%s has %s, which %s no longer exports: run go generate ./runner/interp/symbols", name, k, pkg)
			}
		}
	}
}

// expectedEntries lists the symbol entries yaegi extract writes for pkg:
// each exported name (constants with their value) and "_I" for each
// exported interface type I.
func expectedEntries(t *testing.T, pkg string) map[string]string {
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", pkg).Output()
	if err != nil {
		t.Fatalf("go list -export %s: %v", pkg, err)
	}
	exports := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, "="); ok {
			exports[path] = file
		}
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})
	p, err := imp.Import(pkg)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, n := range p.Scope().Names() {
		obj := p.Scope().Lookup(n)
		if !obj.Exported() {
			continue
		}
		want[n] = ""
		switch o := obj.(type) {
		case *types.Const:
			// yaegi extract writes untyped constants as literals and typed
			// ones (exp.Profile, exp.Verdict, ...) as the value itself.
			if b, ok := o.Type().(*types.Basic); !ok || b.Info()&types.IsUntyped == 0 {
				want[n] = fmt.Sprintf("reflect.ValueOf(%s.%s)", p.Name(), n)
				break
			}
			kind := map[constant.Kind]string{constant.Bool: "BOOL", constant.String: "STRING", constant.Int: "INT", constant.Float: "FLOAT"}[o.Val().Kind()]
			want[n] = fmt.Sprintf("reflect.ValueOf(constant.MakeFromLiteral(%q, token.%s, 0))", o.Val().ExactString(), kind)
		case *types.TypeName:
			if types.IsInterface(o.Type()) {
				want["_"+n] = ""
			}
		}
	}
	return want
}

func ExampleRun() {
	err := Run(context.Background(), "testdata/compile.go", os.Stdout, os.Stderr)
	fmt.Println(err)
	// Output: testdata/compile.go:6:7: undefined: undefinedThing
}
