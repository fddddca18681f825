package hostinfo

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Host is the environment of a run.
type Host struct {
	Name      string // host name
	OS        string // GOOS/GOARCH
	CPU       string // CPU model name
	Cores     int    // logical CPUs usable by the process
	GPU       string // GPU model(s), "" when none was found
	GoVersion string
	// Commit is the git commit of the working tree, with "+dirty" appended
	// when its code (anything tracked but results databases and reports)
	// has uncommitted changes; "" outside a repository.
	Commit string
}

var (
	once    sync.Once
	current Host
)

// Current describes this machine. It is computed once per process.
func Current() Host {
	once.Do(func() {
		name, _ := os.Hostname()
		current = Host{
			Name:      name,
			OS:        runtime.GOOS + "/" + runtime.GOARCH,
			CPU:       cpuModel(),
			Cores:     runtime.GOMAXPROCS(0),
			GPU:       gpuModel(),
			GoVersion: runtime.Version(),
			Commit:    gitCommit(""),
		}
	})
	return current
}

// cpuModel reads the first "model name" of /proc/cpuinfo (Linux), else
// returns the architecture.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(key) == "model name" {
			return strings.TrimSpace(val)
		}
	}
	return runtime.GOARCH
}

// gpuModel asks nvidia-smi, when installed, for the GPUs' names.
func gpuModel() string {
	out, err := command("nvidia-smi", "--query-gpu=name", "--format=csv,noheader")
	if err != nil {
		return ""
	}
	return strings.Join(strings.Split(strings.TrimSpace(out), "\n"), "; ")
}

// outputPaths are the tracked files a campaign writes as it runs (the
// results databases, shards included, and the reports): changes to them are
// results, not code, so they do not make the commit "+dirty". Without this
// every run of a campaign on a clean checkout was marked dirty, since its
// first run changes results.db before the next one asks.
var outputPaths = []string{":(top,exclude,glob)**/*.db", ":(top,exclude)reports"}

// gitCommit returns HEAD's hash of the repository holding dir ("" for the
// working directory), marked "+dirty" when tracked files other than
// outputPaths have uncommitted changes. It only reads the repository.
func gitCommit(dir string) string {
	head, err := command("git", "-C", dir, "rev-parse", "HEAD")
	if err != nil {
		return ""
	}
	head = strings.TrimSpace(head)
	args := append([]string{"-C", dir, "status", "--porcelain", "--untracked-files=no", "--", ":/"}, outputPaths...)
	if status, err := command("git", args...); err == nil && strings.TrimSpace(status) != "" {
		head += "+dirty"
	}
	return head
}

func command(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).Output()
	return string(out), err
}
