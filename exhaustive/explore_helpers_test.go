package exhaustive

import (
	"testing"

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
