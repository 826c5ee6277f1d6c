package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/comparison"
	"github.com/nip-rs/harness/internal/cli"
)

// compareFlagDoc is -compare's usage line.
const compareFlagDoc = "compare candidates side by side, comma-separated: the encodings A and B, or rule sets (spec, an amendment); prints the invariant table"

// compare runs -compare: every candidate under each tie policy through
// every universe (the defaults, or the one -universe names) and cube it
// can run, then the table (text, -json, -html), and the witness of every
// violated cell written to -witness. Exit 0 when every cell holds or is not
// applicable, 1 when some cell is violated, 3 when a run hit -max-states
// first, 2 on a usage error.
func compare(o *options, names string, stdout, stderr io.Writer) int {
	if f := cli.Unmeant(o.set, "compare", "depth", "tie", "workers", "max-states", "json", "html", "witness", "universe"); f != "" {
		return usageError(stderr, fmt.Errorf("-%s has no meaning with -compare", f))
	}
	opts := comparison.Options{Catalog: cat, Depth: o.depth, Workers: o.workers, MaxStates: o.maxStates}
	if err := opts.Parse(names, o.tie); err != nil {
		return usageError(stderr, err)
	}
	if o.isSet("universe") {
		opts.Universes = []string{o.universe}
	}
	t, err := comparison.Compare(opts)
	if err != nil {
		return usageError(stderr, fmt.Errorf("-compare: %v", err))
	}
	head := fmt.Sprintf("explore -compare=%s -universes=%s -depth=%d -tie=%s -workers=%d -max-states=%d (version %s)",
		strings.Join(opts.Candidates, ","), strings.Join(t.Universes, ","), o.depth, o.tie, o.workers, o.maxStates, cli.Version())
	files, err := t.WriteWitnesses(o.witness)
	if err != nil {
		fmt.Fprintln(stderr, "explore:", err)
	}
	if o.html != "" {
		if err := t.WriteHTMLFile(o.html, head); err != nil {
			return usageError(stderr, fmt.Errorf("-html: %v", err))
		}
	}
	if o.json {
		if err := t.WriteJSON(stdout); err != nil {
			return usageError(stderr, err)
		}
	} else {
		fmt.Fprintln(stdout, head)
		if err := t.WriteText(stdout); err != nil {
			return usageError(stderr, err)
		}
		for _, f := range files {
			fmt.Fprintf(stdout, "witness written to %s (replay: explore -replay %s)\n", f, f)
		}
		if o.html != "" {
			fmt.Fprintf(stdout, "page written to %s\n", o.html)
		}
	}
	switch {
	case t.Violated():
		return exitViolation
	case t.Unknown():
		return exitUnknown
	}
	return exitOK
}
