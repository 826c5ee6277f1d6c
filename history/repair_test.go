package history

import (
	"testing"
)

// TestRepairNotUndoneByTheBridge: a history the random state machine
// found under the proposed walk (pages of one wrap, a catch-up budget of
// one page, an overlap of two seconds). The bridge, out of budget, leaves
// second 4 unwalked; the repair pass of the same round walks it again
// after the bridge and narrows the pending region to [2, 3]. Joining the
// bridge's region to the pending one then undid that (the hull [2, 4]
// again), so every later round repeated the same pages and the wrap at 3,
// held by one relay, was never stored (H8-heal). The repair's region now
// counts: no invariant fails along the history, and one more quiet
// catch-up stores the wrap. (A pending region stays: a one-page budget
// cannot bridge a two-second overlap of one wrap a second, so each round
// leaves second 4 to its repair again, which re-reads it.)
func TestRepairNotUndoneByTheBridge(t *testing.T) {
	u := UniverseConfig{Round: Config{PageWraps: 1, CatchUpPages: 1, LoadOlderPages: 1, OverlapMs: 2}, MaxT: 6, Tick: 1}
	w, err := NewWorld(u, Proposed(), ReportGate)
	if err != nil {
		t.Fatal(err)
	}
	s := initial()
	for i, tr := range []int{0, 5, 0, 2, 0, 0, 5, 5, 5} {
		n, fs, ok := w.step(s, tr)
		if !ok {
			t.Fatalf("step %d: transition %d not enabled", i, tr)
		}
		for _, f := range w.filter(append(fs, w.checkState(n)...)) {
			t.Errorf("step %d: %s: %s\nfrom\n%s\nto\n%s", i, Invariants[f.Inv].ID, f.Detail, s, n)
		}
		s = n
	}
	if s.store&bit(3) == 0 {
		t.Errorf("after the repair rounds, the wrap at 3 is not stored: %s", s)
	}
}
