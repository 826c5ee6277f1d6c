// Package history is a sans-I/O model of the paged history walk of
// community-history-sync.md: a client pages a channel's wraps from capped
// relays into a local store, keeps a per-channel cursor {newest, oldest,
// exhausted}, and runs a round of three passes (the newest page, the bridge
// down to the saved newest, the older pass below the saved oldest).
//
// The package does no I/O. A Round emits one page request at a time
// (Round.Next); the caller asks the relays, reports what each relay did
// (Round.Deliver, Round.Timeout), and the round reads the page back from a
// Store, as the client reads its database. Every judgement the round makes
// goes through a Rules value of function fields; Spec returns the
// document's rules, Healing a named alternative that records a partially
// bridged region in the cursor, and Proposed the fixes for the holes the
// universe variants find.
//
// Files: params.go (the named constants and Config), cursor.go (Cursor,
// Window and the monotone merge), rules.go (the seam: Spec, Healing,
// Proposed), page.go (pages and progress), round.go (the round),
// round_pin.go (the pinned re-ask of a second), round_input.go (bounds on
// outside input, the clock, capability records), store.go (wraps and the
// in-memory store), relay.go (simulated relays and Drive, which runs a
// round against them), drive.go (DriveWire, a round over websockets);
// world.go, world_state.go, world_round.go and invariants.go are the
// exhaustive universe over search.World and its variants, explore.go
// Explore and ExploreWith (the engine's state limit and progress),
// witness.go its witness files and Replay, and liveness.go the check that
// every walk ends (Liveness, ReplayLasso).
package history
