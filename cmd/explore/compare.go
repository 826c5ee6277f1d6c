package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nip-rs/harness/candidate"
	"github.com/nip-rs/harness/comparison"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
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
	for _, f := range o.set {
		switch f {
		case "compare", "depth", "tie", "workers", "max-states", "json", "html", "witness", "universe":
		default:
			return usageError(stderr, fmt.Errorf("-%s has no meaning with -compare", f))
		}
	}
	opts := comparison.Options{Catalog: cat, Depth: o.depth, Workers: o.workers, MaxStates: o.maxStates}
	for _, n := range strings.Split(names, ",") {
		if n = strings.TrimSpace(n); n == "" {
			return usageError(stderr, fmt.Errorf("-compare %q: an empty candidate name", names))
		}
		opts.Candidates = append(opts.Candidates, n)
	}
	if o.tie != "both" {
		t, err := model.ParseTiePolicy(o.tie)
		if err != nil {
			return usageError(stderr, fmt.Errorf("-tie: %v", err))
		}
		opts.Ties = []model.TiePolicy{t}
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
	files, err := writeCompareWitnesses(o.witness, t)
	if err != nil {
		fmt.Fprintln(stderr, "explore:", err)
	}
	if o.html != "" {
		var b bytes.Buffer
		if err := t.WriteHTML(&b, head); err != nil {
			return usageError(stderr, fmt.Errorf("-html: %v", err))
		}
		if err := os.WriteFile(o.html, b.Bytes(), 0o644); err != nil {
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

// encodingChange says which wire encoding a witness ran (package
// candidate), for the page's account of what differs from production.
func encodingChange(name string) string {
	enc, err := candidate.Lookup(name)
	if err != nil {
		return "wire encoding " + name
	}
	return fmt.Sprintf("wire encoding %s: %s", name, enc.Doc())
}

// writeCompareWitnesses writes the witness of every violated cell.
func writeCompareWitnesses(dir string, t *comparison.Table) ([]string, error) {
	names, ws := t.Witnesses()
	if len(ws) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("witness directory: %w", err)
	}
	var files []string
	for i, w := range ws {
		p := filepath.Join(dir, names[i])
		if err := os.WriteFile(p, w.JSON(), 0o644); err != nil {
			return files, fmt.Errorf("write witness: %w", err)
		}
		files = append(files, p)
	}
	return files, nil
}
