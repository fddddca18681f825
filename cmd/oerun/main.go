// Command oerun is the oe command line: it generates triplets, embeds them,
// runs experiment scripts and benchmarks. Each subcommand lives in its own
// file and registers itself in commands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one oerun subcommand.
type command struct {
	// summary is the one-line description shown by oerun --help.
	summary string
	// run executes the subcommand with its arguments (after the name).
	run func(args []string) error
}

var commands = map[string]command{}

func register(name string, c command) {
	if _, dup := commands[name]; dup {
		panic("oerun: command registered twice: " + name)
	}
	commands[name] = c
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "oerun: ordinal embedding from triplet comparisons")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "usage: oerun <command> [flags]   (oerun <command> --help for its flags)")
	fmt.Fprintln(w, "       oerun experiments/X.go     (run an experiment script)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(os.Stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	name, rest := args[0], args[1:]
	// A script path is shorthand for "oerun run <script>".
	if strings.HasSuffix(name, ".go") {
		if _, ok := commands["run"]; ok {
			name, rest = "run", args
		}
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "oerun: unknown command %q\n\n", name)
		usage(os.Stderr)
		return 2
	}
	if err := c.run(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(os.Stderr, "oerun %s: %v\n", name, err)
		return 1
	}
	return 0
}

// newFlags returns a flag set for a subcommand whose usage names it.
func newFlags(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: oerun %s %s\n\nflags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}
