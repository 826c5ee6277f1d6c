// Package relaysim is an in-memory Nostr relay driven through the same
// messages a full-state load exchanges with a real one (model.Out in,
// model.In out), with a Profile of knobs for every relay behaviour the load
// depends on: the cap as a function of the requested limit, tie order,
// tags applied before or after the cap, addressable replacement, since and
// until inclusivity, push delivery and the delivery barrier, result
// caching, and soft-deleted rows that still count toward the cap.
//
// The conformant profile honours the five relay requirements of NIP-RS
// (Full-State Load); one profile breaks each requirement in turn, and the
// real-relay-like profiles mimic behaviours read from relay sources.
//
// The relay is deterministic: nothing depends on map order or on a clock;
// the caller interleaves the relay's steps (which pending client message
// it processes next, when a delayed push goes out, when a split
// replacement finishes) explicitly.
//
// The knobs a Profile turns: the cap (by the requested limit and by the
// REQs seen), tie order, prefix selection, whether tags filter before or
// after the cap, the same-second rule, delete-then-save replacement,
// stale versions, since and until exclusivity, the push mode (before any
// EOSE, past it, or none), a cache that writes do not invalidate, and
// soft-deleted rows that count toward the cap. conformant applies tags
// after the cap, which NIP-01 allows, and queues pushes.
//
// The driver processes pending client messages in any order, as a
// conforming relay may; this is why a load counts its fence as
// established at the fence's EOSE, not when its REQ was sent.
//
// # What each profile breaks
//
// How the load goes wrong over each profile under the production rules
// (the findings: props/testdata/figures/TestRelayProfileFindings.txt):
//
//   - R1 non-prefix: a capped page skips an event above its lowest
//     second. R2 cap-shrinking: the band sets C=3, a cap-2 window
//     delivers 2 < 3 and discharges a truncated second (quiescent too).
//     R3 floor-1: a window delivering 1 < max(1, 2) discharges a second
//     of two.
//   - R4 no-push: a replacement above the cursor is never seen;
//     late-registration (answered before registered, one pass): a
//     replacement accepted in between, after the query read its
//     coordinate, reaches neither. R5 push-after-eose, strfry-like: the
//     push follows the final EOSE. R6 delete-then-save: a query in the
//     gap finds neither version. R8 sub-evicting: the fence is evicted
//     silently. R7 cached: a second load within the cache's life gets the
//     fence and first band (same filter JSON) from before a write. None
//     of these shows without writes.
//   - khatru-slice-like: since is exclusive, so every pinned window is
//     empty and a capped second is discharged half read.
//     soft-deleted-rows: withheld deleted rows fill the cap, so a page is
//     short while coordinates remain (step 7's premise).
//   - Harmless: sqlite-substring-tag-like (the tag-free filter never
//     meets the substring match) and insertion-ties (the subset a cap
//     keeps inside a second decides no verdict).
//   - The -settling profiles run the two-pass load with a gap, each race
//     finished within it; none has a finding.
//
// The benchmark (testdata/figures/TestBenchFigures.txt) runs one load
// (n = 500, cap 500) over 50 read-state coordinates among 10,000 foreign
// kind 30078 events per profile: non-prefix gives a false complete, and
// every other profile collects all 50 (no plateau, nothing written during
// the load).
package relaysim
