package hostinfo

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestCurrentDescribesThisProcess(t *testing.T) {
	h := Current()
	checks := []struct {
		field string
		ok    bool
	}{
		{"OS", h.OS == runtime.GOOS+"/"+runtime.GOARCH},
		{"Cores", h.Cores == runtime.GOMAXPROCS(0)},
		{"GoVersion", h.GoVersion == runtime.Version()},
		{"CPU", h.CPU != ""},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s wrong in %+v", c.field, h)
		}
	}
	if Current() != h {
		t.Error("Current changed between calls")
	}
}

func ExampleCurrent() {
	h := Current()
	fmt.Println(h.OS == runtime.GOOS+"/"+runtime.GOARCH)
	// Output: true
}

// TestGitCommitDirtyOnlyForCode checks that results a campaign writes
// (results databases, shards, reports) leave the commit clean, and that a
// change to anything else marks it "+dirty".
func TestGitCommitDirtyOnlyForCode(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the commit cannot be read")
	}
	tracked := []string{"lib/fit.go", "results.db", "shards/task-1.db", "reports/paper/general.md", "Makefile"}
	cases := []struct {
		changed string
		dirty   bool
	}{
		{"", false},
		{"results.db", false},
		{"shards/task-1.db", false},
		{"reports/paper/general.md", false},
		{"lib/fit.go", true},
		{"Makefile", true},
	}
	for _, c := range cases {
		t.Run("changed="+c.changed, func(t *testing.T) {
			dir := t.TempDir()
			git := func(args ...string) string {
				out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...).CombinedOutput()
				if err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
				return strings.TrimSpace(string(out))
			}
			git("init", "-q")
			for _, f := range tracked {
				path := filepath.Join(dir, f)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte("committed\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			git("add", "-A")
			git("commit", "-q", "-m", "start")
			head := git("rev-parse", "HEAD")
			if c.changed != "" {
				if err := os.WriteFile(filepath.Join(dir, c.changed), []byte("changed\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// Asked from a subdirectory, as a run may be: the rule covers the whole tree.
			got := gitCommit(filepath.Join(dir, "lib"))
			want := head
			if c.dirty {
				want += "+dirty"
			}
			if got != want {
				t.Errorf("gitCommit = %q, want %q", got, want)
			}
		})
	}
}
