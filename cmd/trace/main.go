package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/spec"
)

func main() {
	ctx, stop := cli.Interruptible()
	defer stop()
	os.Exit(runContext(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// doc is -h: what the command does, how to call it and its exit codes.
var doc = cli.Doc{
	Name: "trace",
	About: `the traceability table of NIP-RS. It reads the spec text, finds its
normative sentences (MUST, SHOULD, MAY, ...), and prints every requirement of
spec/requirements.tsv grouped by how it is enforced (a check a mutant is
caught by, tests only, argued only, uncheckable here), with counts, then every
disagreement between the table, the spec text and the repository's checks.`,
	Examples: []string{
		"trace                                # the table of the spec beside this checkout",
		"trace -summary                       # the counts and the problems only",
		"trace -spec ../shared/seeds/NIP-RS.md -root .",
		"trace -list                          # the requirements, one line each",
	},
	Exit: []cli.Exit{
		{Code: cli.ExitOK, Meaning: "the table traces the spec; -h, -version, -list"},
		{Code: cli.ExitFailed, Meaning: `the table does not trace the spec: an unlisted MUST sentence, a stale row,
an unknown check or mutant, a mutant none of a row's checks catches`},
		{Code: cli.ExitUsage, Meaning: `usage or input error: unknown flag; a spec file that cannot be read, is
not text, or holds no normative sentence; a root without the repository`},
		{Code: cli.ExitUnknown, Meaning: `interrupted (Ctrl-C): what was read so far is printed, no verdict; or no
spec text at the default place (a fresh clone) and every check and mutant
resolves: whether the table traces the text is unknown`},
	},
}

// run is the command with its arguments and streams, returning the exit
// status.
func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr)
}

// interrupted reports whether ctx ended (the first SIGINT or SIGTERM) and,
// if so, prints what the run had done: the trace is quick, so it is checked
// between its phases only.
func interrupted(ctx context.Context, stdout io.Writer, done string) bool {
	if ctx.Err() == nil {
		return false
	}
	fmt.Fprintf(stdout, "interrupted: %s; no verdict\n", done)
	return true
}

// runContext is run, stopped with exit 3 once ctx ends.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := cli.New(doc)
	root := c.Flags.String("root", ".", "the repository root (its _test.go files and mutants/testdata are read)")
	specFile := c.Flags.String("spec", "", "the spec text (default: "+spec.DefaultPath+" under -root)")
	summary := c.Flags.Bool("summary", false, "print only the counts and the problems, not every row")
	list := c.Flags.Bool("list", false, "list the requirements (id, kind, section, paraphrase) and exit")
	if code, done := c.Parse(args, stdout, stderr); done {
		return code
	}
	reqs, err := spec.Requirements()
	if err != nil {
		return c.Fail(stderr, fmt.Errorf("requirements table: %v", err))
	}
	if *list {
		for _, r := range reqs {
			fmt.Fprintf(stdout, "%-6s %-10s %s: %s\n", r.ID, r.Kind, r.Section, r.Paraphrase)
		}
		return cli.ExitOK
	}
	path := *specFile
	if path == "" {
		path = filepath.Join(*root, spec.DefaultPath)
	}
	text, err := os.ReadFile(path)
	if err != nil && *specFile == "" && errors.Is(err, fs.ErrNotExist) {
		// The spec text is not part of the repository: its default place
		// is beside the checkout, which a fresh clone lacks. The table is
		// still traced against the repository's checks.
		return checksOnly(ctx, c, *root, path, reqs, *summary, stdout, stderr)
	}
	if err != nil {
		return c.Fail(stderr, fmt.Errorf("read the spec: %v", err))
	}
	sents, err := specSentences(path, text)
	if err != nil {
		return c.Fail(stderr, err)
	}
	if interrupted(ctx, stdout, fmt.Sprintf("read %d normative sentences of %s, the repository's checks not yet", len(sents), path)) {
		return cli.ExitUnknown
	}
	cat, err := spec.NewCatalogue(*root)
	if err != nil {
		return c.Fail(stderr, err)
	}
	if interrupted(ctx, stdout, fmt.Sprintf("read %d normative sentences of %s and the repository's checks, not compared", len(sents), path)) {
		return cli.ExitUnknown
	}
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
		return cli.ExitOK
	}
	fmt.Fprintf(stdout, "%d problems:\n", len(problems))
	for _, p := range problems {
		fmt.Fprintf(stdout, "  %s\n", p)
	}
	return cli.ExitFailed
}

// specSentences reads the normative sentences of a spec file, refusing a
// file that is not a spec: not UTF-8 text (or holding NUL bytes), or with
// no normative sentence at all. Tracing such a file would report every row
// stale, which says nothing about the table.
func specSentences(path string, text []byte) ([]spec.Sentence, error) {
	if !utf8.Valid(text) || bytes.IndexByte(text, 0) >= 0 {
		return nil, fmt.Errorf("-spec %s: not UTF-8 text, so not a spec", path)
	}
	sents := spec.Parse(string(text))
	if len(sents) == 0 {
		return nil, fmt.Errorf("-spec %s: no normative sentence (MUST, SHOULD, MAY, ...), so not a spec", path)
	}
	return sents, nil
}

// checksOnly traces the table without the spec text: every row's checks
// and mutants against the repository (spec.AuditChecks). Exit 1 on a
// problem; otherwise 3, since whether every MUST sentence is listed and
// every row still stands in the text was not compared.
func checksOnly(ctx context.Context, c *cli.Command, root, path string, reqs []spec.Requirement, summary bool, stdout, stderr io.Writer) int {
	fmt.Fprintf(stderr, "trace: no spec text at %s (the default: %s beside the repository, under -root %s); name NIP-RS.md with -spec FILE to compare the table with the text\n", path, spec.DefaultPath, root)
	cat, err := spec.NewCatalogue(root)
	if err != nil {
		return c.Fail(stderr, err)
	}
	if interrupted(ctx, stdout, "read the repository's checks, not compared") {
		return cli.ExitUnknown
	}
	fmt.Fprintf(stdout, "trace -spec=(none): the table against the repository's checks only; the spec text was not read\n")
	if summary {
		spec.WriteCounts(stdout, spec.Count(reqs, cat))
	} else {
		spec.WriteTable(stdout, reqs, cat)
	}
	if problems := spec.AuditChecks(reqs, cat); len(problems) > 0 {
		fmt.Fprintf(stdout, "%d problems:\n", len(problems))
		for _, p := range problems {
			fmt.Fprintf(stdout, "  %s\n", p)
		}
		return cli.ExitFailed
	}
	fmt.Fprintln(stdout, "every check and mutant resolves; unknown whether every MUST sentence is listed and every row stands in the text (no spec text read)")
	return cli.ExitUnknown
}
