package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// A universe of the catalogue with no path of its own in this command (a
// community universe, candidate A's encoding) is explored through its
// entry, and reported in the entry's terms: the figures, each invariant's
// violations, the smallest witness.

// entryFlags are the flags with a meaning for such a universe.
var entryFlags = map[string]bool{"universe": true, "depth": true, "rules": true, "tie": true, "workers": true, "max-states": true,
	"witness": true, "progress": true, "cpuprofile": true, "memprofile": true}

// isCatalogueOnly says whether name is a universe only the catalogue
// runs (catalog.Catalog.EntryOnly).
func isCatalogueOnly(name string) bool {
	_, ok := universes.EntryOnly(name)
	return ok
}

// exploreEntry explores a catalogue-only universe under each tie -tie
// names (one run for a community universe, which has no tie policy).
func exploreEntry(o *options, e catalog.Entry, stdout, stderr io.Writer) int {
	for _, f := range o.set {
		if !entryFlags[f] {
			return usageError(stderr, fmt.Errorf("-%s has no meaning with -universe %s", f, e.Name))
		}
	}
	ties, err := cli.ParseTies(o.tie)
	if err != nil {
		return usageError(stderr, err)
	}
	if e.Layer == ruleset.LayerCommunity {
		ties = ties[:1]
	}
	depth := e.Depth
	if o.depth > 0 {
		depth = o.depth
	}
	code := exitOK
	for _, tie := range ties {
		rules, err := e.RuleSet(o.rules, tie)
		if err != nil {
			return usageError(stderr, err)
		}
		run := fmt.Sprintf("explore -universe=%s -depth=%d -rules=%s -workers=%d -max-states=%d (version %s)", e.Name, depth, o.rules, o.workers, o.maxStates, cli.Version())
		if e.Layer == ruleset.LayerModel {
			run = fmt.Sprintf("explore -universe=%s -depth=%d -tie=%s -rules=%s -workers=%d -max-states=%d (version %s)", e.Name, depth, tie, o.rules, o.workers, o.maxStates, cli.Version())
		}
		current.Named(run)
		b := catalog.Bound{Depth: depth, Workers: o.workers, MaxStates: o.maxStates}
		if o.progress > 0 {
			b.Progress = func(p search.Progress) { fmt.Fprintln(stderr, progressLine(e.Name, tie.String(), depth, p)) }
		}
		s, err := e.Explore(rules, b)
		if err != nil {
			return usageError(stderr, err)
		}
		fmt.Fprintln(stdout, run)
		fmt.Fprintf(stdout, "\nuniverse %s (%s layer): %s\n%s distinct states\n", e.Name, e.Layer, e.Doc, num.Commas(s.Distinct))
		ids := s.ViolatedIDs()
		for _, id := range ids {
			fmt.Fprintf(stdout, "  %-34s FAIL %s\n", id, num.Commas(s.Violations[id]))
		}
		if s.JSON != nil {
			fmt.Fprintf(stdout, "\n%s", s.Text)
			name := fmt.Sprintf("explore-%s-depth%d-%s.json", e.Name, depth, o.rules)
			if e.Layer == ruleset.LayerModel {
				name = fmt.Sprintf("explore-%s-depth%d-%s-%s.json", e.Name, depth, tie, o.rules)
			}
			p, err := witnessfile.WriteNamed(o.witness, name, s.JSON)
			if err != nil {
				fmt.Fprintln(stderr, "explore:", err)
			} else {
				fmt.Fprintf(stdout, "witness written to %s\n", p)
			}
		}
		switch s.Status {
		case search.StatusViolation:
			fmt.Fprintf(stdout, "\nresult: violation: %s\n", strings.Join(ids, ", "))
			code = exitViolation
		case search.StatusUnknown:
			fmt.Fprintf(stdout, "\nresult: unknown: %s\n", s.BoundHit)
			if code == exitOK {
				code = exitUnknown
			}
		default:
			fmt.Fprintln(stdout, "\nresult: ok, no violation")
		}
	}
	return code
}

// simulateEntry refuses -simulate on a universe only the catalogue runs:
// none of them has a seeded simulation (the community universes' random
// walks are their package's rapid tests), and the entry says so.
func simulateEntry(o *options, e catalog.Entry, stderr io.Writer) int {
	rules, err := e.RuleSet(o.rules, model.ClearWins)
	if err != nil {
		return usageError(stderr, err)
	}
	if _, err := e.Simulate(rules, catalog.SimBound{Walks: o.sim.walks, Steps: o.sim.steps, Seed: o.sim.seed, Workers: o.workers}); err != nil {
		return usageError(stderr, fmt.Errorf("-simulate: %w", err))
	}
	return usageError(stderr, fmt.Errorf("-simulate: universe %s has no report of its simulation here", e.Name))
}
