package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// cli runs oerun with args as a user would, capturing what it prints, and
// returns stdout, stderr and the exit status.
func cli(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	dir := t.TempDir()
	outF, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	errF, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	saved := [2]*os.File{os.Stdout, os.Stderr}
	os.Stdout, os.Stderr = outF, errF
	code = run(args)
	os.Stdout, os.Stderr = saved[0], saved[1]
	outF.Close()
	errF.Close()
	o, _ := os.ReadFile(outF.Name())
	e, _ := os.ReadFile(errF.Name())
	return string(o), string(e), code
}

// files lists the files below dir, relative to it, except the WAL and
// shared-memory companions that SQLite keeps beside a database it reads
// (results.db-wal, results.db-shm), which hold no results.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !info.IsDir() && !strings.HasSuffix(p, ".db-wal") && !strings.HasSuffix(p, ".db-shm") {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// badInput is a command line that must fail: exit status 1, one error line
// on stderr (and the pointer to --help for a usage error) containing want,
// nothing on stdout, and no file written in the working directory.
type badInput struct {
	name  string
	args  []string
	want  string
	usage bool // the error is about how the command was called
}

// checkBadInputs runs each case in dir (the working directory, holding the
// inputs the cases name) and checks the above.
func checkBadInputs(t *testing.T, dir string, cases []badInput) {
	t.Helper()
	t.Chdir(dir)
	before := files(t, dir)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cli(t, tc.args...)
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
			wantLines := 1
			if tc.usage {
				wantLines = 2
			}
			if len(lines) != wantLines || !strings.Contains(lines[0], tc.want) {
				t.Errorf("stderr %q, want %d line(s), the first containing %q", stderr, wantLines, tc.want)
			}
			if tc.usage && !strings.HasPrefix(lines[len(lines)-1], "see oerun ") {
				t.Errorf("stderr %q does not point to --help", stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if after := files(t, dir); strings.Join(after, " ") != strings.Join(before, " ") {
				t.Errorf("files %v after the command, %v before", after, before)
			}
		})
	}
}

func TestConventions(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantOut    []string
		wantErr    string
		wantStatus int
	}{
		{"--help", []string{"--help"}, []string{"usage: oerun <command>", "algorithms", "export", "version"}, "", 0},
		{"help", []string{"help"}, []string{"usage: oerun <command>"}, "", 0},
		{"command --help on stdout", []string{"embed", "--help"}, []string{"usage: oerun embed --algorithm NAME", "--quiet", "--dataset string", "(default soe)"}, "", 0},
		{"help command", []string{"help", "triplets"}, []string{"usage: oerun triplets", "--test-count int"}, "", 0},
		{"help run", []string{"help", "run"}, []string{"usage: oerun run", "--profile string"}, "", 0},
		{"version", []string{"version"}, []string{"oerun ", " commit ", "go1."}, "", 0},
		{"no command", nil, nil, "usage: oerun <command>", 1},
		{"unknown command", []string{"frobnicate"}, nil, "oerun: unknown command \"frobnicate\"\nsee oerun --help\n", 1},
		{"help for an unknown command", []string{"help", "frobnicate"}, nil, "oerun help: unknown command \"frobnicate\"\nsee oerun help --help\n", 1},
		{"bad flag: one line and --help", []string{"embed", "--bogus"}, nil, "oerun embed: flag provided but not defined: -bogus\nsee oerun embed --help\n", 1},
		{"bad flag value", []string{"triplets", "--n", "many"}, nil, "oerun triplets: invalid value \"many\" for flag -n: parse error\nsee oerun triplets --help\n", 1},
		{"no doubled prefix", []string{"embed", "--algorithm", "nope", "--triplets", "t.csv", "--out", "e.csv"}, nil,
			"oerun embed: unknown algorithm \"nope\" (known: ckl, cklx, forte, gnmds, gnmdsx, lloe, loe, oenn, soe, ste, tste)\n", 1},
		// Flags before the script reach oerun run (which then finds no such script).
		{"flags before the script", []string{"--profile", "smoke", "--quiet", "nosuch/x.go"}, nil, "oerun run: stat nosuch/x.go: no such file or directory\n", 1},
		{"flags after the script", []string{"nosuch/x.go", "--profile", "smoke"}, nil, "oerun run: stat nosuch/x.go: no such file or directory\n", 1},
		{"bad profile before the script", []string{"--profile", "huge", "nosuch/x.go"}, nil, "unknown profile \"huge\"", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cli(t, tc.args...)
			if code != tc.wantStatus {
				t.Errorf("exit status %d, want %d (stderr %q)", code, tc.wantStatus, stderr)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			if tc.wantErr == "" && stderr != "" || !strings.Contains(stderr, tc.wantErr) {
				t.Errorf("stderr %q, want %q", stderr, tc.wantErr)
			}
		})
	}
}

// Every command has --quiet and --help, and a usage that says what each
// flag means.
func TestEveryCommandHasConventions(t *testing.T) {
	for name := range commands {
		if name == "help" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			stdout, stderr, code := cli(t, name, "--help")
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			for _, w := range []string{"usage: oerun " + name, "--quiet\n      no progress display"} {
				if !strings.Contains(stdout, w) {
					t.Errorf("usage lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
}
