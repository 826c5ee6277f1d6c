package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// The exit codes every command shares (DESIGN.md, "Output conventions").
const (
	ExitOK      = 0 // every check passed; -h, -version, -list
	ExitFailed  = 1 // a violation, a surviving mutant, a problem found
	ExitUsage   = 2 // a usage or input error: nothing ran
	ExitUnknown = 3 // unknown: a bound was hit, or the run was interrupted
)

// Doc is what -h prints: what the command does, how to call it, and what
// its exit codes mean for it. The flags are listed from the flag set.
type Doc struct {
	// Name is the command's name, the prefix of its error messages.
	Name string
	// About says what the command does, in a paragraph or two.
	About string
	// Examples are command lines, each with an optional "  # note".
	Examples []string
	// Exit says what each exit code means for this command.
	Exit []Exit
	// Args names the positional arguments the command takes ("URL");
	// empty means none, and any is a usage error. The command checks
	// their number itself.
	Args string
}

// Exit is one exit code's meaning.
type Exit struct {
	Code    int
	Meaning string
}

// Command is a command's flag set with the contract every command keeps:
// -h and -help print the Doc on standard output and exit 0; -version
// prints the build and exits 0; a usage error prints one message (and
// where to read the usage) on standard error and exits 2.
type Command struct {
	Doc   Doc
	Flags *flag.FlagSet
	// version is -version.
	version bool
}

// New returns a command whose flag set has -version; the caller adds its
// own flags to Flags before Parse.
func New(doc Doc) *Command {
	c := &Command{Doc: doc, Flags: flag.NewFlagSet(doc.Name, flag.ContinueOnError)}
	// The flag package's own messages are replaced by Fail's one line, and
	// its usage by Usage on standard output.
	c.Flags.SetOutput(io.Discard)
	c.Flags.Usage = func() {}
	c.Flags.BoolVar(&c.version, "version", false, "print the version and exit")
	return c
}

// Parse parses args. done is true when the command is to exit at once
// with code: after -h (the usage on stdout, 0), -version (0), or a usage
// error (the message on stderr, 2). Positional arguments are a usage error.
func (c *Command) Parse(args []string, stdout, stderr io.Writer) (code int, done bool) {
	err := c.Flags.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.Usage(stdout)
		return ExitOK, true
	case err != nil:
		return c.Fail(stderr, err), true
	case c.Flags.NArg() > 0 && c.Doc.Args == "":
		return c.Fail(stderr, fmt.Errorf("unexpected arguments: %s", strings.Join(c.Flags.Args(), " "))), true
	case c.version:
		fmt.Fprintln(stdout, c.Doc.Name, Version())
		return ExitOK, true
	}
	return ExitOK, false
}

// Set lists the flags given on the command line, sorted.
func (c *Command) Set() []string {
	var set []string
	c.Flags.Visit(func(f *flag.Flag) { set = append(set, f.Name) })
	return set
}

// IsSet reports whether the flag name was given on the command line.
func (c *Command) IsSet(name string) bool { return slices.Contains(c.Set(), name) }

// Unmeant is the first flag of set (flags given, as Set lists them) that
// is not among those a mode of the command takes, "" when there is none:
// a mode refuses a flag it would ignore rather than run as if heeded.
func Unmeant(set []string, takes ...string) string {
	for _, f := range set {
		if !slices.Contains(takes, f) {
			return f
		}
	}
	return ""
}

// Fail reports a usage or input error on stderr and returns ExitUsage.
func (c *Command) Fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "%s: %v\n", c.Doc.Name, err)
	fmt.Fprintf(stderr, "(%s -h prints the usage)\n", c.Doc.Name)
	return ExitUsage
}

// Usage writes the Doc and the flags to w.
func (c *Command) Usage(w io.Writer) {
	d := c.Doc
	fmt.Fprintf(w, "%s: %s\n", d.Name, strings.TrimSpace(d.About))
	fmt.Fprintf(w, "\nusage: %s [flags]", d.Name)
	if d.Args != "" {
		fmt.Fprintf(w, " %s", d.Args)
	}
	fmt.Fprintln(w)
	if len(d.Examples) > 0 {
		fmt.Fprintln(w, "\nexamples (a built binary, go build -o bin/ ./cmd/...; under go run every\nexit code but 0 shows as 1):")
		for _, e := range d.Examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
	fmt.Fprintln(w, "\nflags:")
	c.Flags.SetOutput(w)
	c.Flags.PrintDefaults()
	c.Flags.SetOutput(io.Discard)
	fmt.Fprintln(w, "\nexit codes:")
	for _, e := range d.Exit {
		fmt.Fprintf(w, "  %d  %s\n", e.Code, strings.ReplaceAll(strings.TrimSpace(e.Meaning), "\n", "\n     "))
	}
}
