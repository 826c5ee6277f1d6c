package runreport

import (
	"fmt"
	"io"
	"slices"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/search"
)

// WriteList writes what a command line can name: every universe of c,
// the rule sets of the override layer (ex's: amendments, mutants, the
// readings of the text), the invariants of the reference and network
// worlds, the walk's rule sets, variants and invariants, then whatever
// more writes (the observations), then the directed checks.
func WriteList(w io.Writer, c *catalog.Catalog, ex *exhaustive.Catalog, more func(io.Writer)) {
	fmt.Fprintln(w, "universes:")
	for _, e := range c.All() {
		switch {
		case e.Name == history.UniverseName:
			fmt.Fprintf(w, "  %-12s depth %d  %s (rule sets and invariants below)\n", e.Name, e.Depth, e.Doc)
		case e.Layer == ruleset.LayerHistory:
			// The walk's variants are listed under it (-variant).
		case e.Layer == ruleset.LayerCommunity:
			fmt.Fprintf(w, "  %-12s depth %d  %s (community layer; rules also rekey-heal)\n", e.Name, e.Depth, e.Doc)
		default:
			fmt.Fprintf(w, "  %-12s depth %d  %s\n", e.Name, e.Depth, e.Doc)
		}
	}
	fmt.Fprintln(w, "rule sets of every universe but walk:")
	fmt.Fprintf(w, "  %-20s the rules NIP-RS.md states, literally where it is silent (model.Spec)\n", "spec")
	fmt.Fprintf(w, "  %-20s spec and every proposal: what a production client runs, the default (model.Proposed; ERRATA.md)\n", model.ProposedName)
	for _, a := range amendments.All() {
		fmt.Fprintf(w, "  %-20s amendment: %s (%s)\n", a.Name, a.Title, a.Section)
	}
	for _, m := range mutants.All() {
		if m.Change.History == nil { // the history mutants change the walk only: listed under it
			fmt.Fprintf(w, "  %-20s mutant: %s (%s)\n", m.ID, m.Rule, m.Section)
		}
	}
	for _, r := range mutants.Readings() {
		fmt.Fprintf(w, "  %-20s reading of the spec text the checks can run, not a mutant the gate runs (%s)\n", r.Name, r.Section)
	}
	for _, world := range []struct{ name, universe string }{{"reference world", "reference"}, {"network world", "network"}} {
		u, _ := ex.Universe(world.universe)
		fmt.Fprintf(w, "invariants of the %s (%s):\n", world.name, world.universe)
		rows := slices.Clone(exhaustive.InvariantTable(u))
		slices.SortStableFunc(rows, func(a, b search.Invariant) int { return NaturalCompare(a.Label, b.Label) })
		for _, inv := range rows {
			fmt.Fprintf(w, "  %-4s %-34s %s (counted in %s; %s)\n", inv.Label, inv.ID, inv.Doc, exhaustive.UnitName(inv.Unit), inv.Section)
		}
	}
	writeWalkList(w)
	if more != nil {
		more(w)
	}
	fmt.Fprintln(w, "directed checks:")
	for _, d := range directed.Checks() {
		fmt.Fprintf(w, "  %-26s %-4s %s\n", d.Key, d.Label, d.Name)
	}
}

// writeWalkList writes the walk universe's part of the list: its rule
// sets, its variants and its invariants.
func writeWalkList(w io.Writer) {
	fmt.Fprintf(w, "rule sets of the %s universe:\n", history.UniverseName)
	fmt.Fprintf(w, "  %-20s the walk as community-history-sync.md states it (documented limitation: %s)\n", "spec", history.Limitation)
	fmt.Fprintf(w, "  %-20s spec with the fix the document names: a bridge out of budget records the region it left\n", "healing")
	fmt.Fprintf(w, "  %-20s healing with pinned seconds, cap detection, a clock ceiling, stray wraps as evidence and a bridge down to the overlap\n", "proposed")
	for _, m := range mutants.All() {
		if m.Change.History != nil {
			fmt.Fprintf(w, "  %-20s history mutant: %s (%s)\n", m.ID, m.Rule, m.Section)
		}
	}
	fmt.Fprintf(w, "variants of the %s universe (-variant):\n", history.UniverseName)
	for _, v := range history.Variants() {
		fmt.Fprintf(w, "  %-20s %s\n", v.Name, catalog.WalkVariantDoc(v.U))
	}
	fmt.Fprintf(w, "invariants of the %s universe:\n", history.UniverseName)
	for _, inv := range history.Invariants {
		fmt.Fprintf(w, "  %-4s %-34s %s (%s)\n", inv.Label, inv.ID, inv.Doc, inv.Section)
	}
}
