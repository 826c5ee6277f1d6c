// Package errata is the one place a spec author reads to learn what to
// change in NIP-RS.md and community-history-sync.md, and why: every
// finding of the harness about the text, with the section it concerns,
// what the text says, what goes wrong under it (the shortest witness found
// under the rule set that implements the text, stored under testdata/ and
// replayable with explore -replay), the sentence proposed, and the bounded
// evidence that the proposal closes it (computed, not quoted).
//
// ERRATA.md at the repository root is Render's output; `go run
// ./cmd/errata` rewrites it and the package's test fails when the file
// and a fresh rendering differ, or when a witness no longer reproduces
// under the text, reproduces under the proposal, or does not need the
// proposal it is filed under (it must reproduce with that one proposal
// left out of proposed).
//
// Findings are ordered by severity: an override lost or resurrected
// first, then a load or walk that claims completeness it does not have,
// then liveness and efficiency.
package errata
