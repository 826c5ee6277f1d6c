package amendments

import "github.com/nip-rs/harness/model"

// SetWinsEverywhere decides every concurrent set and clear with equal
// counters as set (unread), on every device, instead of clear.
func SetWinsEverywhere() Amendment {
	return Amendment{
		Name:    "set-wins-everywhere",
		Title:   "a tie between a concurrent set and clear is decided as set, on every device",
		Section: "Liveness Predicate (tie policy)",
		Rationale: "Showing a channel as unread after a conflicting mark-read is the cautious " +
			"failure: the user sees it again rather than missing it. The change is sound only " +
			"if every device adopts it at once (a mixed population is mutant M3).",
		Tie:    model.SetWins,
		Pinned: true,
	}
}
