package search

import (
	"slices"
	"testing"
)

// cube is a toy world for the reduction: k counters in 0..n-1, transition
// t increments counter t, and any two transitions commute. A state check
// fails where every counter is at least limit, so the violation is at
// depth k*limit.
type cube struct {
	k, n, limit int
	commute     bool // claim independence (the Reducer); false is a plain World
}

func (g cube) Width() int { return g.k }
func (g cube) Invariants() []Invariant {
	return []Invariant{{ID: "C1-corner", Label: "C1", Doc: "some counter stays below the limit", Unit: unitState}}
}
func (g cube) Units() []string      { return []string{"steps", "states"} }
func (g cube) NewWorker() *int      { return new(int) }
func (g cube) Initial(*int) []int32 { return make([]int32, g.k) }
func (g cube) Transitions() int     { return g.k }
func (g cube) Check(_ *int, row []int32, tl *Tally) []Finding {
	tl.Add(unitState, 1)
	if slices.Min(row) >= int32(g.limit) {
		return []Finding{{0, "corner"}}
	}
	return nil
}
func (g cube) Successor(c *int, cur []int32, t int, next []int32, tl *Tally) (bool, []Finding) {
	return g.SuccessorSleep(c, cur, t, next, nil, tl)
}
func (g cube) SuccessorSleep(_ *int, cur []int32, t int, next []int32, _ []uint64, tl *Tally) (bool, []Finding) {
	if int(cur[t]) == g.n-1 {
		return false, nil
	}
	copy(next, cur)
	next[t]++
	tl.Add(unitStep, 1)
	return true, nil
}
func (g cube) Independent(a, b int) bool { return g.commute && a != b }

// The reduction stores every state at its minimal depth, reports the same
// violation at the same depth, and executes fewer transitions; a World
// that claims no independence is explored exactly as without it.
func TestSleepSetsKeepEveryState(t *testing.T) {
	g := cube{k: 3, n: 6, limit: 2, commute: true}
	full, err := Explore[*int](g, Config{Depth: 15, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 3} {
		red, err := Explore[*int](g, Config{Depth: 15, Workers: workers, POR: true})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(red.PerDepth, full.PerDepth) || red.Distinct != 216 || red.Checked != full.Checked {
			t.Fatalf("reduced per depth %v (%d), full %v (%d)", red.PerDepth, red.Distinct, full.PerDepth, full.Distinct)
		}
		if red.Status != StatusViolation || red.Tally.Best().Depth != 6 || full.Tally.Best().Depth != 6 {
			t.Fatalf("violation at depth %d reduced, %d full", red.Tally.Best().Depth, full.Tally.Best().Depth)
		}
		// Every state is entered once: 215 transitions instead of one per
		// (state, enabled transition) pair.
		if red.Tally.Units(unitStep) != 215 || full.Tally.Units(unitStep) <= 215 {
			t.Fatalf("transitions: reduced %d, full %d", red.Tally.Units(unitStep), full.Tally.Units(unitStep))
		}
	}
	g.commute = false
	plain, err := Explore[*int](g, Config{Depth: 15, Workers: 2, POR: true})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Tally.Units(unitStep) != full.Tally.Units(unitStep) || !slices.Equal(plain.PerDepth, full.PerDepth) {
		t.Fatal("a World with no independent transitions was reduced")
	}
}
