// Command errata writes ERRATA.md, the harness's findings about NIP-RS.md
// and community-history-sync.md with their witnesses, proposed text and
// evidence (package errata). Run it from the repository root.
//
//	go run ./cmd/errata              # rewrite ERRATA.md
//	go run ./cmd/errata -check       # exit 1 when ERRATA.md differs from a fresh rendering
//	go run ./cmd/errata -witnesses   # search every witness again and rewrite errata/testdata first
//
// Exit codes: 0 done (or no drift), 1 drift or a witness that no longer
// behaves as filed, 2 usage or a file that cannot be read or written.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nip-rs/harness/errata"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("errata", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "ERRATA.md", "the file to write (or compare with -check)")
	check := fs.Bool("check", false, "compare instead of writing: exit 1 on a difference")
	witnesses := fs.Bool("witnesses", false, "search every finding's witness again and rewrite errata/testdata before rendering")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "errata: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *witnesses {
		for _, f := range errata.All() {
			if !f.HasWitness() {
				continue // a relaxation or a clarification
			}
			data, err := errata.Generate(f)
			if err != nil {
				fmt.Fprintln(stderr, "errata:", err)
				return 1
			}
			p := errata.WitnessPath(f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				fmt.Fprintln(stderr, "errata:", err)
				return 2
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				fmt.Fprintln(stderr, "errata:", err)
				return 2
			}
			fmt.Fprintln(stderr, "errata: wrote", p)
		}
	}
	entries, err := errata.Build(os.ReadFile)
	if err != nil {
		fmt.Fprintln(stderr, "errata:", err)
		return 2
	}
	ambiguities, err := errata.MeasureAmbiguities()
	if err != nil {
		fmt.Fprintln(stderr, "errata:", err)
		return 2
	}
	text := []byte(errata.Render(entries, ambiguities))
	if *check {
		have, err := os.ReadFile(*out)
		if err != nil {
			fmt.Fprintln(stderr, "errata:", err)
			return 2
		}
		if !bytes.Equal(have, text) {
			fmt.Fprintf(stdout, "%s differs from a fresh rendering: run go run ./cmd/errata\n", *out)
			return 1
		}
		fmt.Fprintf(stdout, "%s is up to date: %d findings\n", *out, len(entries))
		return 0
	}
	if err := os.WriteFile(*out, text, 0o644); err != nil {
		fmt.Fprintln(stderr, "errata:", err)
		return 2
	}
	fmt.Fprintf(stdout, "wrote %s: %d findings\n", *out, len(entries))
	return 0
}
