// Package candidate runs the override layer under a wire encoding other
// than the one the spec adopted, so that the formal note's two candidates
// can be compared by the same search and the same generic invariants.
//
// An Encoding makes upgraded installations (Device): their actions, their
// publication as plaintext bytes and their receipt of plaintext bytes. Two
// exist:
//
//   - B, the spec's encoding (ov_s:/ov_c:/ov_b: sibling keys inside
//     contexts): a Device delegating to model.Replica unchanged, published
//     through model.EncodeBlob and received through model.ParseBlobWith, so
//     every decision is the production core's under the run's model.Rules.
//   - A, the lexicographic operation register {counter, tiebreak, op,
//     baseline} carried in a top-level "overrides" field (rega.go, wirea.go,
//     devicea.go).
//
// A legacy installation is the same for both: model's legacy replica fed by
// model.ParseBlobLegacy, which reconstructs only {v, client_id, contexts},
// as the production legacy reader does; an unknown top-level field such as
// A's is therefore gone after a legacy rewrite.
//
// Explore runs a universe without a network (the reference universe)
// under an Encoding on package search, in the reference universe's
// transition order (world.go), so that under B it reaches exactly the
// states the production explorer reaches (a test compares them). Its
// invariants (checks.go, Table) are generic: frontier regression,
// per-device delivery-order independence, legacy-rewrite safety and
// identity-free verdicts: I2 and I3 as in the reference; I7, a production
// legacy client republishing each upgraded publication, whose fresh
// reader must end where a reader of the original does; ID, which mirrors
// every client id and requires no verdict to change. Its witnesses name their encoding and Replay
// re-runs them (witness.go). Cubes (cubes.go) are the note's I4 and I6
// stated over any encoding, and A's join laws (I1).
package candidate
