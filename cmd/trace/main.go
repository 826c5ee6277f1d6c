package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nip-rs/harness/spec"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command with its arguments and streams, returning the exit
// status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "the repository root (its _test.go files and mutants/testdata are read)")
	specFile := fs.String("spec", "", "the spec text (default: "+spec.DefaultSpecPath+" under -root)")
	summary := fs.Bool("summary", false, "print only the counts and the problems, not every row")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "trace: unexpected arguments %q\n", fs.Args())
		return 2
	}
	path := *specFile
	if path == "" {
		path = filepath.Join(*root, spec.DefaultSpecPath)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "trace: read the spec: %v\n", err)
		return 2
	}
	reqs, err := spec.Requirements()
	if err != nil {
		fmt.Fprintf(stderr, "trace: requirements table: %v\n", err)
		return 2
	}
	cat, err := spec.NewCatalogue(*root)
	if err != nil {
		fmt.Fprintf(stderr, "trace: %v\n", err)
		return 2
	}
	sents := spec.Parse(string(text))
	mandatory := 0
	for _, s := range sents {
		if s.Mandatory() {
			mandatory++
		}
	}
	fmt.Fprintf(stdout, "trace -spec=%s: %d normative sentences, %d of them MUST or MUST NOT\n", path, len(sents), mandatory)
	if *summary {
		spec.WriteCounts(stdout, spec.Count(reqs, cat))
	} else {
		spec.WriteTable(stdout, reqs, cat)
	}
	problems := spec.Audit(reqs, sents, cat)
	if len(problems) == 0 {
		fmt.Fprintln(stdout, "every MUST sentence is listed; every check and mutant resolves")
		return 0
	}
	fmt.Fprintf(stdout, "%d problems:\n", len(problems))
	for _, p := range problems {
		fmt.Fprintf(stdout, "  %s\n", p)
	}
	return 1
}
