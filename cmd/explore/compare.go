package main

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/comparison"
	"github.com/nip-rs/harness/internal/cli"
)

// compareFlagDoc is -compare's usage line.
const compareFlagDoc = "compare candidates side by side, comma-separated: the encodings A and B, or rule sets (spec, an amendment); prints the invariant table"

// compare runs -compare (comparison.Run): every candidate under each tie
// policy through every universe (the defaults, or the one -universe
// names) and cube it can run, then the table (text, -json, -html), and
// the witness of every violated cell written to -witness. Exit 0 when every cell holds or is not
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
	code, err := comparison.Run(opts, comparison.Report{Tie: o.tie, WitnessDir: o.witness, HTML: o.html, JSON: o.json}, stdout,
		func(err error) { fmt.Fprintln(stderr, "explore:", err) })
	if err != nil {
		return usageError(stderr, err)
	}
	return code
}
