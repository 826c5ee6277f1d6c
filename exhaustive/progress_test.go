package exhaustive

import (
	"testing"
	"time"
)

// The progress line in words, from fixed snapshots (nothing here reads a
// clock): each branch of the wording, including a frontier of zero (no
// division) and a phase with nothing done yet (no time left is guessed).
func TestProgressLine(t *testing.T) {
	for _, c := range []struct {
		p    Progress
		want string
	}{
		{Progress{Phase: "expand", Depth: 5, Frontier: 80_000, Queue: 60_000, Found: 100_000, Distinct: 300_000, PhaseElapsed: 20 * time.Second},
			"expanding depth 5 of 7: 20,000 of 80,000 states expanded (25%); 100,000 new states at depth 6 so far, about 400,000 when done; about 60 s left at this depth; 300,000 distinct states stored"},
		{Progress{Phase: "expand", Depth: 5, Frontier: 80_000, Queue: 80_000, Previous: 20_000, Distinct: 110_000},
			"expanding depth 5 of 7: 0 of 80,000 states expanded (0%); depth 6 will hold about 320,000 states if it grows as the last did; 110,000 distinct states stored"},
		{Progress{Phase: "check", Depth: 6, Frontier: 400_000, Queue: 100_000, Distinct: 700_000, PhaseElapsed: 30 * time.Minute},
			"checking depth 6 of 7: 300,000 of 400,000 states checked (75%); about 10 min left at this depth; 700,000 distinct states stored"},
		{Progress{Phase: "expand", Depth: 0, Distinct: 1},
			"expanding depth 0 of 3: 0 of 0 states expanded (0%); 1 distinct states stored"},
	} {
		bound := 7
		if c.p.Depth == 0 {
			bound = 3
		}
		if got := ProgressLine(c.p, bound); got != c.want {
			t.Errorf("\n got %s\nwant %s", got, c.want)
		}
	}
}
