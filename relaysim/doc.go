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
package relaysim
