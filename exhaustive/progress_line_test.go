package exhaustive

import (
	"testing"
	"time"
)

// A run's progress line is the progress line in words (TestProgressLine)
// headed by its universe and tie, as the explorer prints it on stderr.
func TestRunProgressLine(t *testing.T) {
	p := Progress{Phase: "expand", Depth: 5, Frontier: 80_000, Queue: 70_000, Previous: 20_000, Distinct: 110_000, PhaseElapsed: 5 * time.Second}
	want := "explore network tie=clear: expanding depth 5 of 7: 10,000 of 80,000 states expanded (12%); depth 6 will hold about 320,000 states if it grows as the last did; about 35 s left at this depth; 110,000 distinct states stored"
	if got := RunProgressLine("network", "clear", 7, p); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}
