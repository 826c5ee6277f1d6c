package search

import (
	"fmt"
	"testing"
)

// split is the grid whose two invariants fail at different depths: the
// step check when a step reaches limit, the state check only from
// stateAt on, so the overall smallest hit says nothing about the second.
type split struct {
	grid
	stateAt int
}

func (s split) Check(c *int, row []int32, tl *Tally) []Finding {
	tl.Add(unitState, 1)
	if s.sum(row) >= s.stateAt {
		return []Finding{{1, fmt.Sprintf("sum %d", s.sum(row))}}
	}
	return nil
}

func TestBestOfKeepsTheSmallestHitPerInvariant(t *testing.T) {
	w := split{grid{n: 40, limit: 30}, 12}
	var first *Run
	for _, workers := range []int{1, 2, 7} {
		r, err := Explore[*int](w, Config{Depth: 60, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		step, state := r.Tally.BestOf(0), r.Tally.BestOf(1)
		if step == nil || state == nil {
			t.Fatalf("workers %d: per-invariant hits %v %v", workers, step, state)
		}
		if best := r.Tally.Best(); *best != *state {
			t.Fatalf("workers %d: best %+v is not the shallower state hit %+v", workers, best, state)
		}
		if step.Depth != 30 || step.Finding.Inv != 0 || state.Depth != 12 || state.Finding.Inv != 1 {
			t.Fatalf("workers %d: step hit %+v state hit %+v", workers, step, state)
		}
		// Each hit's trace really ends where its invariant fails.
		for _, h := range []*Hit{step, state} {
			path := append(r.Store.Path(h.Parent), h.Trans)
			if len(path) != h.Depth {
				t.Fatalf("hit %+v: trace of %d steps", h, len(path))
			}
			row := []int32{0, 0}
			for _, tr := range path {
				row[tr]++
			}
			if w.sum(row) != h.Depth || (h.Finding.Inv == 0 && w.sum(row) != w.limit) {
				t.Fatalf("hit %+v: trace %v ends at %v", h, path, row)
			}
		}
		if first == nil {
			first = r
			continue
		}
		for i := range 2 {
			if *r.Tally.BestOf(i) != *first.Tally.BestOf(i) {
				t.Fatalf("workers %d: invariant %d hit %+v, 1 worker %+v", workers, i, r.Tally.BestOf(i), first.Tally.BestOf(i))
			}
		}
	}
	// An invariant never violated on a trace has no hit, even when
	// counted as violated by the whole run.
	r, err := Explore[*int](w, Config{Depth: 20})
	if err != nil {
		t.Fatal(err)
	}
	r.Tally.Violate(0)
	if r.Tally.BestOf(0) != nil || r.Tally.BestOf(1) == nil {
		t.Fatalf("depth 20: hits %v %v", r.Tally.BestOf(0), r.Tally.BestOf(1))
	}
}
