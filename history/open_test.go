package history

import (
	"strings"
	"testing"
)

// TestOpenPinBudget holds an open finding of the proposed walk, found by
// TestWalkStateMachine: with a catch-up budget of one page (pages of one
// wrap, an overlap of two seconds), the pending region [2, 4] is never
// repaired, since each round's pinned second takes the whole budget; a
// wrap held only by the second relay stays missing across repeated quiet
// catch-ups (H8-heal). The random test leaves that budget out; this test
// fails once the walk repairs the region, and NOTE.md ("The holes, found
// by search") is then to be updated.
func TestOpenPinBudget(t *testing.T) {
	u := UniverseConfig{Round: Config{PageWraps: 1, CatchUpPages: 1, LoadOlderPages: 1, OverlapMs: 2}, MaxT: 6, Tick: 1}
	w, err := NewWorld(u, Proposed(), ReportGate)
	if err != nil {
		t.Fatal(err)
	}
	s := initial()
	var found string
	for i, tr := range []int{0, 5, 0, 2, 0, 0, 5, 5} {
		n, fs, ok := w.step(s, tr)
		if !ok {
			t.Fatalf("step %d: transition %d not enabled", i, tr)
		}
		for _, f := range w.filter(append(fs, w.checkState(n)...)) {
			if found == "" {
				found = Invariants[f.Inv].ID + ": " + f.Detail
			}
		}
		s = n
	}
	if !strings.HasPrefix(found, "H8-heal: a repeated quiet catch-up left the hole {3} unrepaired") {
		t.Fatalf("the open finding no longer reproduces (found %q): update NOTE.md and TestWalkStateMachine's budget", found)
	}
}
