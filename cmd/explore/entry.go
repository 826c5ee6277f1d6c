package main

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/runreport"
	"github.com/nip-rs/harness/witnessfile"
)

// isCatalogueOnly says whether name is a universe only the catalogue
// runs (catalog.Catalog.EntryOnly): the walk's variants, the community
// universes, candidate A's encoding.
func isCatalogueOnly(name string) bool {
	_, ok := universes.EntryOnly(name)
	return ok
}

// exploreEntry explores or simulates a universe through its catalogue
// entry (runreport.EntryRuns: the walk, a community universe, candidate
// A's), one run per tie policy where the entry has ties.
func exploreEntry(o *options, stdout, stderr io.Writer) int {
	runs, err := runreport.EntryRuns(universes, runreport.EntryArgs{Universe: o.universe, Variant: o.variant, Rules: o.rules, Tie: o.tie,
		Depth: o.depth, Workers: o.workers, MaxStates: o.maxStates, Walks: o.sim.walks, Steps: o.sim.steps, Seed: o.sim.seed, JSON: o.json, Flags: o.set})
	if err != nil {
		return usageError(stderr, err)
	}
	out := runreport.EntryOutput{Dir: o.witness, Warn: func(err error) { fmt.Fprintln(stderr, "explore:", err) }}
	if o.html != "" {
		out.Page = func(w *witnessfile.Witness) error { return writeHTML(o.html, []*witnessfile.Witness{w}, nil) }
	}
	code := exitOK
	for _, r := range runs {
		current.Named(r.Header)
		var progress io.Writer
		if o.progress > 0 {
			progress = stderr
		}
		if err := r.Run(progress); err != nil {
			return usageError(stderr, err)
		}
		c, err := r.Report(stdout, out)
		if err != nil {
			return usageError(stderr, err)
		}
		code = runreport.WorseExit(code, c)
	}
	return code
}
