package history

import "github.com/nip-rs/harness/search"

// Units the universe's checks count.
const (
	UnitRounds search.Unit = iota
	UnitStates
)

// Invariant indices, in table order (the order is the precedence between
// violations found at the same step).
const (
	InvTerminates = iota
	InvMonotone
	InvFailedRelay
	InvNoGap
	InvEarned
	InvNotificationOnly
	InvResume
	InvHeal
	InvEfficient
	InvStated
)

// Invariants is the universe's invariant table.
var Invariants = []search.Invariant{
	{ID: "H1-terminates", Label: "H1", Unit: UnitRounds, Section: "A channel round over page subscriptions (exclusive boundary)",
		Doc: "a round ends within its page budgets and never asks the same page twice"},
	{ID: "H2-monotone", Label: "H2", Unit: UnitRounds, Section: "Cursors (merged monotonically)",
		Doc: "newest never moves back, oldest never forward, exhausted is cleared only by a rekey"},
	{ID: "H3-failed-relay", Label: "H3", Unit: UnitRounds, Section: "Failure semantics",
		Doc: "a relay that refused or stayed silent from its first page leaves the cursor as it was; the round reports exactly the relays that failed, auth-required never among them"},
	{ID: "H4-no-gap", Label: "H4", Unit: UnitStates, Section: "Cursors (advanced only when the region is verifiably complete)",
		Doc: "every addressable wrap a relay holds in [oldest, newest] (outside a recorded pending region) is in the store"},
	{ID: "H5-exhausted-earned", Label: "H5", Unit: UnitStates, Section: "exhausted is earned",
		Doc: "exhausted only when every addressable wrap a relay holds below oldest is in the store"},
	{ID: "H6-notification-only", Label: "H6", Unit: UnitStates, Section: "Failure semantics (all-empty round)",
		Doc: "a room no round ever fetched a wrap for (its store holds only live notifications) is never sealed as exhausted"},
	{ID: "H7-resume", Label: "H7", Unit: UnitRounds, Section: "Older pass (resumed on later rounds)",
		Doc: "a quiet repeated round, not exhausted, with held wraps below oldest missing, stores one or lowers oldest"},
	{ID: "H8-heal", Label: "H8", Unit: UnitRounds, Section: "Known limitation (the bridge is bounded by CATCH_UP_PAGES)",
		Doc: "a quiet repeated catch-up with held wraps missing at or above oldest stores one of them or moves newest or the pending region"},
	{ID: "H9-efficient", Label: "H9", Unit: UnitRounds, Section: "Cold asks for everything, warm asks for what is new; skip the older pass when exhausted",
		Doc: "a round asks no page whose window reaches into a region the saved cursor already proves complete, beyond the overlap below newest"},
	{ID: "H10-stated", Label: "H10", Unit: UnitRounds, Section: "exhausted is earned (a second the walk cannot prove)",
		Doc: "with no relay capped, a round whose relays answer states a second unproven only when a relay holds nothing else in the window of the page it came from, so that no question could show its cap"},
}

// Limitation is the invariant the document's own rules are known to break:
// an offline burst larger than the bridge's budget times the page size
// leaves a hole no later round repairs.
const Limitation = "H8-heal"

// Known reports whether the rule set is known to violate invariant id:
// every rule set that keeps the document's unrecorded bridge (Unbridged
// records nothing) has the limitation.
func Known(r *Rules, id string) bool {
	if id != Limitation {
		return false
	}
	_, recorded := r.Unbridged(Cursor{HasNewest: true, NewestMs: 1}, 2)
	return !recorded
}
