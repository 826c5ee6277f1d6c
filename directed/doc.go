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
package directed
