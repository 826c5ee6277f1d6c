package exhaustive

import (
	"testing"
	"time"
)

// A run's progress line, headed by its universe and tie: the depth being
// checked or expanded, the part of its frontier done, the next depth's
// estimate and the time left, from fixed snapshots (nothing here reads a
// clock).
func TestRunProgressLine(t *testing.T) {
	for _, c := range []struct {
		p    Progress
		want string
	}{
		{Progress{Phase: "expand", Depth: 5, Frontier: 80_000, Queue: 60_000, Found: 100_000, Distinct: 300_000, PhaseElapsed: 20 * time.Second},
			"explore network tie=clear: expanding depth 5 of 7: 20,000 of 80,000 states expanded (25%); 100,000 new states at depth 6 so far, about 400,000 when done; about 60 s left at this depth; 300,000 distinct states stored"},
		{Progress{Phase: "expand", Depth: 5, Frontier: 80_000, Queue: 80_000, Previous: 20_000, Distinct: 110_000},
			"explore network tie=clear: expanding depth 5 of 7: 0 of 80,000 states expanded (0%); depth 6 will hold about 320,000 states if it grows as the last did; 110,000 distinct states stored"},
		{Progress{Phase: "expand", Depth: 5, Frontier: 80_000, Queue: 70_000, Previous: 20_000, Distinct: 110_000, PhaseElapsed: 5 * time.Second},
			"explore network tie=clear: expanding depth 5 of 7: 10,000 of 80,000 states expanded (12%); depth 6 will hold about 320,000 states if it grows as the last did; about 35 s left at this depth; 110,000 distinct states stored"},
		{Progress{Phase: "check", Depth: 6, Frontier: 400_000, Queue: 100_000, Distinct: 700_000, PhaseElapsed: 30 * time.Minute},
			"explore network tie=clear: checking depth 6 of 7: 300,000 of 400,000 states checked (75%); about 10 min left at this depth; 700,000 distinct states stored"},
	} {
		if got := RunProgressLine("network", "clear", 7, c.p); got != c.want {
			t.Errorf("\n got %s\nwant %s", got, c.want)
		}
	}
}
