package exhaustive

import (
	"fmt"
	"time"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/num"
)

// ProgressLine words one progress snapshot of a search to depth bound for
// a waiting user: which depth is being checked or expanded, how far
// through its frontier, what the next depth will hold (extrapolated from
// the part of the frontier done, or, before any of it is stored, from the
// growth of the last level: new states are stored a block at a time), and
// about how long the rest of this depth will take. A command prefixes it
// with the run it belongs to.
func ProgressLine(p Progress, bound int) string {
	done := p.Frontier - p.Queue
	pct := 0
	if p.Frontier > 0 {
		pct = done * 100 / p.Frontier
	}
	left := ""
	if done > 0 && p.Queue > 0 {
		left = "; " + cli.Roughly(p.PhaseElapsed/time.Duration(done)*time.Duration(p.Queue)) + " left at this depth"
	}
	if p.Phase == "check" {
		return fmt.Sprintf("checking depth %d of %d: %s of %s states checked (%d%%)%s; %s distinct states stored",
			p.Depth, bound, num.Commas(done), num.Commas(p.Frontier), pct, left, num.Commas(p.Distinct))
	}
	next := ""
	switch {
	case done > 0 && p.Found > 0:
		est := int(int64(p.Found) * int64(p.Frontier) / int64(done))
		next = fmt.Sprintf("; %s new states at depth %d so far, about %s when done", num.Commas(p.Found), p.Depth+1, num.Commas(est))
	case p.Previous > 0:
		est := int(int64(p.Frontier) * int64(p.Frontier) / int64(p.Previous))
		next = fmt.Sprintf("; depth %d will hold about %s states if it grows as the last did", p.Depth+1, num.Commas(est))
	}
	return fmt.Sprintf("expanding depth %d of %d: %s of %s states expanded (%d%%)%s%s; %s distinct states stored",
		p.Depth, bound, num.Commas(done), num.Commas(p.Frontier), pct, next, left, num.Commas(p.Distinct))
}

// RunProgressLine is ProgressLine headed by the run it belongs to: the
// universe and the tie policy being explored. It goes to stderr only.
func RunProgressLine(universe, tie string, bound int, p Progress) string {
	return fmt.Sprintf("explore %s tie=%s: %s", universe, tie, ProgressLine(p, bound))
}
