package directed

import (
	"fmt"
	"slices"

	"github.com/nip-rs/harness/model"
)

// Conformance of the actions (Actions, Natural read) and of the re-publish
// trigger after eviction (Eviction, Live Subscription and Convergence).

// Counter values of the action cube: small ones and the two below and at
// the uint32 ceiling.
var (
	actionCounters     = []uint32{0, 1, 2, model.MaxU32 - 1, model.MaxU32}
	actionCounterNames = []string{"0", "1", "2", "2^32-2", "2^32-1"}
)

var actionNames = []string{"mark-unread", "mark-read at F", "mark-read at F+10", "mark-unread, then read past F", "mark-unread, never read"}

// actionNeverRead is the action on a context the device holds the register
// of but never read (no frontier entry): F is not used, so its points are
// at F = 10 only.
const actionNeverRead = 4

// actionConformance (900 points over both tie policies): from a register
// (S, C, B) with S, C in {0, 1, 2, 2^32-2, 2^32-1}, B in {10, 20}, at
// effective frontier F in {10, 20}, or on a context never read, one
// action, judged by what the spec says it achieves rather than by its
// arithmetic:
//
//   - mark-unread leaves the override active with C unchanged, or, when
//     max(S, C) is already 2^32-1, is refused with the register unchanged;
//     Actions puts no other condition on it, so a context never read (no
//     frontier entry) is marked unread like any other, and stays unread;
//   - an explicit mark-read advances the frontier whatever happens; it
//     succeeds leaving the override inactive with S and B unchanged, and at
//     the ceiling it may instead fail, with the counters unchanged, but only
//     while the override stays active;
//   - no counter ever decreases (no wrap, no reset);
//   - after a mark-unread at frontier F, a natural read to any frontier past
//     F deactivates the override (the baseline is the frontier at the time
//     of the mark-unread).
func actionConformance() *Check {
	return &Check{
		Key: "action-conformance", Label: "C6", Name: "actions achieve what Actions states, ceiling included",
		Params: []Param{{Name: "s", Enum: actionCounterNames}, {Name: "c", Enum: actionCounterNames}, {Name: "b"}, {Name: "f"}, {Name: "action", Enum: actionNames}},
		Cube: func(*model.Rules) []Point {
			all := product(seq(len(actionCounters)), seq(len(actionCounters)), vals(10, 20), vals(10, 20), seq(len(actionNames)))
			return slices.DeleteFunc(all, func(p Point) bool { return p[4] == actionNeverRead && p[3] != 10 })
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				reg := model.Reg{S: actionCounters[p[0]], C: actionCounters[p[1]], B: uint32(p[2])}
				f := uint32(p[3])
				r := holding(rules, "x", ctx0, f, reg)
				at := fmt.Sprintf("f=%d", f)
				if p[4] == actionNeverRead {
					f, at = 0, "no frontier entry"
					r = fresh(rules, "x")
					_ = r.Restore(ctx0, 0, false, reg) // the register, and no frontier entry
				}
				bad := func(format string, a ...any) Outcome {
					return Outcome{Violation: "C6-action", Detail: fmt.Sprintf("%v at %s, %s: ", reg, at, actionNames[p[4]]) + fmt.Sprintf(format, a...)}
				}
				atCeiling := reg.Ceiling() == model.MaxU32
				var err error
				switch p[4] {
				case 0, 3, actionNeverRead:
					err = r.MarkUnread(ctx0)
				case 1:
					err = r.MarkRead(ctx0, f)
				default:
					err = r.MarkRead(ctx0, f+10)
				}
				got := r.Reg(ctx0)
				if got.S < reg.S || got.C < reg.C {
					return bad("counters went from %v to %v", reg, got)
				}
				switch p[4] {
				case 0, 3, actionNeverRead:
					switch {
					case r.Frontier(ctx0) != f || r.HasFrontier(ctx0) != (p[4] != actionNeverRead):
						return bad("the frontier moved to %d", r.Frontier(ctx0))
					case atCeiling && err == nil:
						return bad("not refused at the ceiling (register now %v)", got)
					case atCeiling && got != reg:
						return bad("refused but the register changed to %v", got)
					case atCeiling:
						return Outcome{}
					case err != nil:
						return bad("refused below the ceiling: %v", err)
					case !r.Live(ctx0):
						return bad("succeeded but the override is inactive: %v", got)
					case got.C != reg.C:
						return bad("C changed: %v", got)
					}
					if p[4] == 3 {
						r.Advance(ctx0, f+5)
						if r.Live(ctx0) {
							return bad("marked unread at f=%d (register %v), the frontier advanced to %d, still active", f, got, f+5)
						}
					}
				default:
					want := f
					if p[4] == 2 {
						want = f + 10
					}
					switch {
					case r.Frontier(ctx0) != want:
						return bad("frontier %d, want %d", r.Frontier(ctx0), want)
					case err == nil && r.Live(ctx0):
						return bad("reported successful while the override is active: %v", got)
					case err == nil && (got.S != reg.S || got.B != reg.B):
						return bad("S or B changed: %v", got)
					case err != nil && !atCeiling:
						return bad("failed below the ceiling: %v", err)
					case err != nil && got != reg:
						return bad("failed but the counters changed to %v", got)
					case err != nil && !r.Live(ctx0):
						return bad("failed though the override is inactive: %v", err)
					}
				}
				return Outcome{}
			}
		},
	}
}

// The dominated-entry cube: a device holding channel "chan" at 100 (and,
// in half the points, its own child entry at 40, dominated and so not
// published) has published; a peer's blob then brings one child entry.
var (
	republishChildren = []string{"thread (parent known)", "msg (parent known)", "thread (parent unknown)"}
	republishIDs      = []string{childIDs[0], childIDs[2], childIDs[5]}
	republishValues   = []string{"nothing", "50", "100", "150"}
	republishHeld     = []string{"no own entry", "own entry at 40"}
)

// dominatedRepublish (tie-independent, 24 points): the re-publish decision
// after eviction (model.Replica.NeedsRepublishEvicted) is false when
// nothing arrived or when the incoming entry is at or below its resolved
// channel's frontier (Eviction: it MUST NOT by itself trigger a re-publish),
// and true when it brings a child entry the last publication lacks or holds
// lower (Live Subscription and Convergence, rule 2).
func dominatedRepublish() *Check {
	return &Check{
		Key: "dominated-republish", Label: "C7", Name: "a dominated incoming child entry never forces a write",
		Params:         []Param{{Name: "child", Enum: republishChildren}, {Name: "incoming", Enum: republishValues}, {Name: "held", Enum: republishHeld}},
		TieIndependent: true,
		Cube: func(*model.Rules) []Point {
			return product(seq(len(republishChildren)), seq(len(republishValues)), seq(len(republishHeld)))
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				child := republishIDs[p[0]]
				d := fresh(rules, "d0")
				d.Parent = splitParent
				d.Advance("chan", 100)
				held := uint32(0)
				if p[2] == 1 {
					held = 40
					d.Advance(child, held)
				}
				budget := model.DefaultBudget()
				if _, err := d.PublishSplit(budget); err != nil {
					return Outcome{Violation: "C7-publish-refused", Detail: err.Error()}
				}
				want := false
				if p[1] > 0 {
					v := []uint32{0, 50, 100, 150}[p[1]]
					_, resolved := splitParent(child)
					dominated := resolved && v <= 100
					before := uint32(0)
					if !resolved && p[2] == 1 {
						before = held // an unresolved child's own entry was published
					}
					want = !dominated && v > before
					d.Receive(model.Blob{V: 1, ClientID: "peer", Contexts: []model.Entry{{Key: "chan", Value: 100}, {Key: child, Value: v}}})
				}
				got, err := d.NeedsRepublishEvicted(budget)
				if err != nil || got != want {
					return Outcome{Violation: "C7-republish", Detail: fmt.Sprintf("%s, %s, incoming %s: re-publish %t (%v), want %t",
						republishChildren[p[0]], republishHeld[p[2]], republishValues[p[1]], got, err, want)}
				}
				return Outcome{}
			}
		},
	}
}
