package amendments

import (
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/ruleset"
)

// BMaxFrontier keeps a baseline above the current frontier when marking
// unread: B := max(oldB, F) instead of B := F. It is what a production
// client does today, and mutant M17 of the catalogue.
func BMaxFrontier() Amendment {
	return Amendment{
		Name:    "b-max-frontier",
		Title:   "mark-unread sets B := max(oldB, F) instead of B := F",
		Section: "Actions (mark-unread)",
		Rationale: "A client that never lowers a stored baseline cannot, by a mark-unread, " +
			"make an override that a frontier already past it would deactivate; the question " +
			"is whether a higher B than the spec's ever changes what any device shows.",
		Change: ruleset.OnModel(func(r *model.Rules) { r.MarkUnread = model.MarkUnreadKeepBaseline }),
	}
}
