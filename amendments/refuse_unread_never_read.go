package amendments

import (
	"errors"
	"fmt"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/ruleset"
)

// ErrNeverRead is the refusal of a mark-unread on a context that was
// never read, under the refuse-unread-never-read amendment.
var ErrNeverRead = errors.New("context never read")

// RefuseUnreadNeverRead refuses a mark-unread on a context that was never
// read (no frontier entry for it, nor for the parent its effective
// frontier takes), leaving the register unchanged; everywhere else it
// decides as the spec does.
func RefuseUnreadNeverRead() Amendment {
	return Amendment{
		Name:    "refuse-unread-never-read",
		Title:   "mark-unread is refused on a context that was never read",
		Section: "Actions (mark-unread)",
		Rationale: "A context never read is already unread by its messages; an override on it " +
			"only records B = 0 and adds three keys that a later read dominates at once. " +
			"Refusing it visibly, as the ceiling is refused, never loses a user's action silently; " +
			"the question is whether any device ever shows otherwise than it would under spec.",
		Change: ruleset.OnModel(func(r *model.Rules) {
			spec := r.MarkUnread
			r.MarkUnread = func(g model.Reg, f uint32, read bool) (model.Reg, error) {
				if !read {
					return g, fmt.Errorf("mark-unread refused: %w", ErrNeverRead)
				}
				return spec(g, f, read)
			}
		}),
	}
}
