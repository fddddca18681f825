// Command oerun is the oe command line: it generates triplets, embeds them,
// evaluates embeddings, runs experiment scripts and exports their results.
// Each subcommand lives in its own file and registers itself in commands.
//
// Every subcommand follows the conventions kept here, in newFlags and run:
// flags are spelt --name; --help prints the usage on stdout; --quiet
// silences progress and messages on stderr; a bad flag or a missing one
// gives one error line and a pointer to --help, and any error exits with
// status 1.
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
	fmt.Fprintln(w, "usage: oerun <command> [flags]   (oerun help <command> for its flags)")
	fmt.Fprintln(w, "       oerun [flags] experiments/X.go ... [flags]   (run experiment scripts: oerun help run)")
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

// run executes the command line args and returns the exit status: 0, or 1
// after printing one error line (and a pointer to --help when a flag was
// wrong or missing) on stderr.
func run(args []string) int {
	if len(args) == 0 {
		usage(os.Stderr)
		return 1
	}
	name, rest := args[0], args[1:]
	switch {
	case name == "-h" || name == "-help" || name == "--help":
		usage(os.Stdout)
		return 0
	case isScript(name) || strings.HasPrefix(name, "-") && hasScript(args):
		// A script path, before or after flags, is shorthand for
		// "oerun run <script>".
		name, rest = "run", args
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "oerun: unknown command %q\nsee oerun --help\n", name)
		return 1
	}
	current = invocation{name: name}
	err := c.run(rest)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp) && current.flags != nil:
		printUsage(os.Stdout, current.flags, current.synopsis, c.summary)
		return 0
	}
	// An error that already names the command (a package of the same name,
	// as embed's errors start "embed:") is not prefixed twice.
	msg := strings.TrimPrefix(err.Error(), name+": ")
	fmt.Fprintf(os.Stderr, "oerun %s: %s\n", name, msg)
	if current.badUsage || errors.As(err, new(usageError)) {
		fmt.Fprintf(os.Stderr, "see oerun %s --help\n", name)
	}
	return 1
}

func isScript(arg string) bool { return strings.HasSuffix(arg, ".go") && !strings.HasPrefix(arg, "-") }

func hasScript(args []string) bool {
	for _, a := range args {
		if isScript(a) {
			return true
		}
	}
	return false
}

// invocation is what run learns of the command it executes through the
// flag set that newFlags made for it.
type invocation struct {
	name     string
	flags    *flag.FlagSet
	synopsis string
	// badUsage records that the flag package rejected an argument (it calls
	// Usage on every parse error, and on --help).
	badUsage bool
}

// current is the invocation under way: oerun executes one command per
// process (and tests call run one at a time).
var current invocation

// newFlags returns the flag set of a subcommand, with the flags every
// command has (--quiet). Parse errors and --help come back from Parse and
// are reported by run: the usage goes to stdout on --help, and a bad flag
// gives one error line and a pointer to --help. A command that finds a
// flag missing or wrong after parsing returns usageErrorf.
func newFlags(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Bool("quiet", false, "no progress display and no messages on stderr, only results and errors")
	fs.Usage = func() { current.badUsage = true }
	current.flags, current.synopsis = fs, synopsis
	return fs
}

// quiet reports whether --quiet was given.
func quiet(fs *flag.FlagSet) bool {
	f := fs.Lookup("quiet")
	return f != nil && f.Value.String() == "true"
}

// stderr is where a command's progress and messages go: os.Stderr, or
// nowhere with --quiet.
func stderr(fs *flag.FlagSet) io.Writer {
	if quiet(fs) {
		return io.Discard
	}
	return os.Stderr
}

// usageError is an error in how a command was called: run adds a pointer
// to its --help.
type usageError struct{ error }

// usageErrorf formats a usageError.
func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// printUsage writes a command's usage: synopsis, summary and flags, each
// with its meaning and default.
func printUsage(w io.Writer, fs *flag.FlagSet, synopsis, summary string) {
	fmt.Fprintf(w, "usage: oerun %s %s\n\n", fs.Name(), synopsis)
	if summary != "" {
		fmt.Fprintf(w, "%s\n\n", summary)
	}
	fmt.Fprintln(w, "flags:")
	fs.VisitAll(func(f *flag.Flag) {
		kind, text := flag.UnquoteUsage(f)
		head := "  --" + f.Name
		if kind != "" {
			head += " " + kind
		}
		fmt.Fprintln(w, head)
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" {
			text += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "      %s\n", text)
	})
}

// noArgs rejects positional arguments of a command that takes none.
func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return usageErrorf("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

func init() {
	register("help", command{
		summary: "show the commands, or a command's flags (oerun help embed)",
		run:     helpCommand,
	})
}

func helpCommand(args []string) error {
	switch len(args) {
	case 0:
		usage(os.Stdout)
		return nil
	case 1:
	default:
		return usageErrorf("help takes one command, got %d arguments", len(args))
	}
	name := args[0]
	if name == "-h" || name == "-help" || name == "--help" {
		usage(os.Stdout)
		return nil
	}
	c, ok := commands[name]
	if !ok || name == "help" {
		return usageErrorf("unknown command %q", name)
	}
	err := c.run([]string{"--help"})
	if !errors.Is(err, flag.ErrHelp) || current.flags == nil {
		return fmt.Errorf("%s has no usage to show (%v)", name, err)
	}
	printUsage(os.Stdout, current.flags, current.synopsis, c.summary)
	return nil
}
