package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// buildCommit is the git commit the binary was built from, set by the
// Makefile (-ldflags "-X main.buildCommit=..."), for builds whose build
// information lacks it (go build -buildvcs=false).
var buildCommit string

func init() {
	register("version", command{
		summary: "print oerun's module version, the commit it was built from and the Go version",
		run:     versionCommand,
	})
}

func versionCommand(args []string) error {
	fs := newFlags("version", "")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	fmt.Println(versionText())
	return nil
}

// versionText reads like "oerun (devel) commit 686a5de… (2024-05-01T10:00:00Z)
// go1.26.8 linux/amd64".
func versionText() string {
	module, commit, when := "(unknown)", buildCommit, ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		module = bi.Main.Version
		modified := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if modified {
			commit += "+dirty"
		}
	}
	if commit == "" {
		commit = "unknown (built without version control information)"
	}
	s := fmt.Sprintf("oerun %s commit %s", module, commit)
	if when != "" {
		s += " (" + when + ")"
	}
	return s + " " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
}
