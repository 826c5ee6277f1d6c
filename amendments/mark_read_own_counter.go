package amendments

import (
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/ruleset"
)

// MarkReadOwnCounter bumps the clear counter from its own value on an
// explicit mark-read, C := C + 1, instead of past both counters,
// C := max(S, C) + 1. It is the worked example of an unsafe amendment:
// a mark-read on a register whose set counter is ahead of its clear
// counter leaves the override live, so the message the user just read
// stays unread (the network universe shows it in three steps).
func MarkReadOwnCounter() Amendment {
	return Amendment{
		Name:    "mark-read-own-counter",
		Title:   "explicit mark-read sets C := C + 1 instead of C := max(S, C) + 1",
		Section: "Actions (explicit mark-read)",
		Rationale: "Incrementing only the counter a device owns looks like the smaller change, and it " +
			"agrees with the spec whenever C >= S; the question is whether any reachable register has S > C " +
			"when a user marks it read.",
		Change: ruleset.OnModel(func(r *model.Rules) {
			spec := r.MarkRead
			r.MarkRead = func(g model.Reg, f uint32, live bool) (model.Reg, error) {
				if g.C == model.MaxU32 || g.S == model.MaxU32 {
					return spec(g, f, live) // the ceiling rules as the spec has them
				}
				return model.Reg{S: g.S, C: g.C + 1, B: g.B}, nil
			}
		}),
	}
}
