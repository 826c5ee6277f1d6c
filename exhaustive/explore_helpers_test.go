package exhaustive

import (
	"testing"

	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// explored is a whole run kept for inspection: the engine's run (its
// store holds every stored state), the world and its device engine.
type explored struct {
	run   *search.Run
	w     world
	e     *engine
	store *search.Store
}

// exploreAll runs the search on a universe and keeps everything.
func exploreAll(t *testing.T, u Universe, rules *model.Rules, tie model.TiePolicy, depth int, symmetric bool) *explored {
	t.Helper()
	w, e, err := newWorld(&u, rules.WithTie(tie), depth, symmetric)
	if err != nil {
		t.Fatal(err)
	}
	run, err := search.Explore[*cache](w, search.Config{Depth: depth, TerminalOnly: u.TerminalOnly, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return &explored{run: run, w: w, e: e, store: run.Store}
}

// rowOf is the index of the invariant id in a result's table.
func rowOf(t *testing.T, r *Result, id string) InvariantCount {
	t.Helper()
	c, ok := r.Invariant(id)
	if !ok {
		t.Fatalf("%s is not in the table of universe %s", id, r.Universe)
	}
	return c
}

// The directed compaction cube names the same invariants as the worlds'
// tables, so a witness of either names one invariant by one ID.
func TestDirectedNamesTheTablesCompactionInvariants(t *testing.T) {
	for _, pair := range [][2]string{
		{directed.InvLostSet, InvLostSet},
		{directed.InvResurrection, InvResurrection},
		{directed.InvMergeResurrection, InvMergeResurrection},
	} {
		if pair[0] != pair[1] {
			t.Errorf("directed names %q, the tables %q", pair[0], pair[1])
		}
		for _, table := range [][]search.Invariant{referenceTable, networkTable} {
			if search.Index(table, pair[1]) < 0 {
				t.Errorf("%s is missing from a table", pair[1])
			}
		}
	}
}

// Every row of both tables is complete: an ID, a label, a doc, a named
// unit and a spec section; IDs are unique within a table.
func TestInvariantTablesAreComplete(t *testing.T) {
	for name, table := range map[string][]search.Invariant{"reference": referenceTable, "network": networkTable} {
		seen := map[string]bool{}
		for _, inv := range table {
			if inv.ID == "" || inv.Label == "" || inv.Doc == "" || inv.Section == "" || int(inv.Unit) >= len(unitNames) || seen[inv.ID] {
				t.Errorf("%s table: incomplete or duplicate row %+v", name, inv)
			}
			seen[inv.ID] = true
		}
	}
}
