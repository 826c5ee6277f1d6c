// Package directed holds the directed checks: named invariants over
// parameter cubes that the bounded search cannot reach (deep histories,
// stale and split deliveries, legacy rewrites), and the conformance cubes
// that hold a rule to the spec's text. Every decision inside a check goes
// through the *model.Rules it is given (its tie policy included), so a
// mutant changes both what happens and what it is checked against. Each
// failing point yields a replayable witness (Replay).
//
// Files: directed.go (the Check type, the runner, replay), laws.go,
// register.go, publish.go, transport.go and legacy.go (the formal note's
// invariants), conformance*.go (the spec-text cubes C1-C8), fixtures.go and
// split.go (what the checks build on), summary.go (the table rows reports and pinned figures print).
//
// Where the cubes differ from the reference's: I8 runs 100 rounds of
// mark-unread and mark-read from a never-read context and asserts only
// what bounds the wire (no action raises max(S, C) by more than one; a
// live register publishes its three keys, a dead one the ov_c floor at
// max(S, C)), leaving the exact counters (S = 201, C = 200 under Spec) to
// C6, since a rule set that counts otherwise yet stays bounded is not
// unsafe; exact-wire-shapes compares whole blobs, ties included. The slot
// checks deal the production grouping round-robin over 2 slots, as the
// reference deals: more arrangements than the production split allows,
// so a grouping fault shows where the production split would hide it. A
// partial group is rejected whole on receipt, so a per-entry split loses
// the override (a wrong verdict) rather than producing the reference's
// false tombstone.
//
// C1 parses and decodes 103 plaintexts: every blob-level rule and Invalid
// Case, values at and past the uint32 range (4294967296, 2^32+7, 2^64,
// negative, fraction, string, boolean), keys of 256 and 257 bytes, the
// entry limit, last-wins duplicates, the spec's examples, the reserved
// namespace, and the 63 shapes of an override group with each sibling
// absent, valid, out of range or not an integer: exactly two accepted,
// every other rejected whole, the frontier kept.
//
// C6 judges actions by what they achieve, not their arithmetic: from every
// register with S, C in {0, 1, 2, 2^32-2, 2^32-1}, B, F in {10, 20}, and
// on a context never read, a mark-unread leaves the override active with
// C unchanged or is refused at the ceiling with the register unchanged; a
// mark-read advances the frontier and leaves the override inactive with
// S, B unchanged, or fails at the ceiling, counters unchanged, only while
// the override stays active; no counter decreases; after a mark-unread at
// F, a natural read past F deactivates it.
package directed
