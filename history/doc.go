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
//
// # The round
//
// The newest page is asked at Opening (cold: no since; warm: newest -
// CursorOverlapMs); the bridge runs from its oldest wrap down to the saved
// newest (until = oldest - 1, at most CatchUpPages pages, ended by a short
// page); the older pass runs below the saved oldest, at most CatchUpPages
// pages on catch-up and LoadOlderPages on scroll-up, and is skipped once
// the cursor is exhausted. Wraps the live subscription stored shape the
// pages as they do in the client, since the round reads each page back
// from the store.
//
// A relay delivering fewer wraps than the limit is bottomed out; a page is
// complete when no relay of the round failed; a relay that refuses (a
// CLOSED other than auth-required:, which waits for the re-issued REQ),
// fails AUTH or is silent past the deadline is out for the round. newest
// advances only on a complete, non-empty newest page with a bottomed
// bridge; oldest moves down only on a complete page contiguous with a
// complete region; exhausted needs a complete, contiguous, bottomed older
// page in a round that fetched a wrap with no failure. The merge is
// monotone, and a rekey clears exhausted.
//
// # The pending region
//
// Under Healing a bridge out of budget records the unwalked region in the
// cursor, newest advances over it, and later catch-ups walk it down with
// their own budget until a short page clears it; a second partial bridge
// joins the first by their hull; a bridge that reached the saved newest
// records nothing, since an empty region would widen the hull.
//
// # The universe
//
// The default universe: one channel, two relays, wraps at created_at 1..5,
// pages of one wrap, a catch-up budget of one page and a scroll-up budget
// of two, no overlap, depth 7; relay 0 also holds a prior epoch's wrap at
// t=1, addressable after the rekey. In each round both relays answer, or
// one answers after auth-required, refuses, is silent, fails AUTH or goes
// silent from its second page. Transitions: publish to relay 0, 1 or
// both; a notification that arrives only live; the rekey (once); a
// catch-up or scroll-up round under each relay behaviour, with or without
// a wrap delivered live after the newest page. Variants (Variants) change
// one of these to expose one hole each. Timestamps near the int64 edges
// (oldest - 1 wrapping, until becoming the largest int64) lie outside the
// universe's small dates: a test checks them under every rule set, and
// the round bounds its input to [0, the largest time] for every rule set,
// a bound rather than a rule, so no mutant drops it.
//
// # What is not modelled
//
// A relay receiving an old wrap late (the overlap's purpose; the backdate
// variant stands for it within the overlap); a rekey making a plane
// addressable inside [oldest, newest]; time and deadlines (a silent relay
// is a page timeout); the live REQ's window; decryption; side-event
// budgets; and the expired-row sweep.
package history
