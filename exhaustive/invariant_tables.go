package exhaustive

import "github.com/nip-rs/harness/search"

// The invariants of the two worlds, each declared once: the engine counts
// them by their unit, cmd/explore renders them (label, doc, unit), -list
// prints them, JSON carries them, and the pinned figures (testdata/figures)
// hold the counts. A table's order is the precedence that breaks ties between
// violations found at the same step. Adding an invariant is adding its row
// here and emitting findings under its ID where it is checked.

// The invariants' IDs: what witnesses, JSON and -replay name.
const (
	InvRegression        = "I3-frontier-regression"
	InvConvergence       = "I2-convergence"
	InvLostSet           = "I5-compaction-lost-set"
	InvResurrection      = "I5-compaction-resurrection"
	InvMergeResurrection = "I5-compaction-merge-resurrection"

	InvNetConvergence = "N1-cross-device-convergence"
	InvNetOrder       = "N2-delivery-order-independence"
	InvNetOracle      = "N3-intent-oracle"
	InvNetFixpoint    = "N4-quiescence-fixpoint"
	InvNetPublish     = "N5-publication"
	InvNetRotation    = "N6-rotation-carry-forward"
	InvNetVacuous     = "N0-non-vacuity"
	InvNetCanonical   = "N7-canonical-publication"
	InvNetPeerVerdict = "N8-published-verdict"
)

// The units the worlds' invariants count.
const (
	unitSteps search.Unit = iota
	unitStates
	unitRegisters
	unitContexts
	unitPublications
	unitRotations
	unitConditions
)

var unitNames = []string{"steps", "states", "registers", "contexts", "publications", "rotations", "conditions"}

// referenceTable is the reference universe's: the formal note's checks,
// the state ones at the depth bound only.
var referenceTable = []search.Invariant{
	{ID: InvRegression, Label: "I3", Doc: "no frontier regression (every executed transition)", Unit: unitSteps,
		Section: "Merge Rule"},
	{ID: InvConvergence, Label: "I2", Doc: "convergence at the bound (every delivery order, per device)", Unit: unitStates,
		Section: "Merge Rule, Wire Encoding"},
	{ID: InvLostSet, Label: "I5", Doc: "compaction at the bound: no lost set", Unit: unitRegisters,
		Section: "Tombstone Floor, Mandatory Canonical Publication"},
	{ID: InvResurrection, Label: "I5", Doc: "compaction at the bound: no resurrection", Unit: unitRegisters,
		Section: "Tombstone Floor, Mandatory Canonical Publication"},
	{ID: InvMergeResurrection, Label: "I5", Doc: "compaction at the bound: merge-back stays dead", Unit: unitRegisters,
		Section: "Tombstone Floor, Merge Rule"},
}

// networkTable is a network universe's: every check runs at every
// reachable state or on every executed transition.
var networkTable = []search.Invariant{
	{ID: InvRegression, Label: "I3", Doc: "no frontier regression (every executed transition)", Unit: unitSteps,
		Section: "Merge Rule"},
	{ID: InvLostSet, Label: "I5", Doc: "compaction at every state: no lost set", Unit: unitRegisters,
		Section: "Tombstone Floor, Mandatory Canonical Publication"},
	{ID: InvResurrection, Label: "I5", Doc: "compaction at every state: no resurrection", Unit: unitRegisters,
		Section: "Tombstone Floor, Mandatory Canonical Publication"},
	{ID: InvMergeResurrection, Label: "I5", Doc: "compaction at every state: merge-back stays dead", Unit: unitRegisters,
		Section: "Tombstone Floor, Merge Rule"},
	{ID: InvNetConvergence, Label: "N1", Doc: "cross-device convergence at quiescence, legacy reader included", Unit: unitStates,
		Section: "Merge Rule, Backwards Compatibility"},
	{ID: InvNetOrder, Label: "N2", Doc: "delivery-order independence of the final publications", Unit: unitStates,
		Section: "Merge Rule"},
	{ID: InvNetOracle, Label: "N3", Doc: "intent oracle agrees with every replica", Unit: unitContexts,
		Section: "Actions, Liveness Predicate, Tie Policy"},
	{ID: InvNetFixpoint, Label: "N4", Doc: "quiescence reaches a fixpoint", Unit: unitStates,
		Section: "Mandatory Canonical Publication"},
	{ID: InvNetPublish, Label: "N5", Doc: "every publication can be made (production split)", Unit: unitPublications,
		Section: "Override Group Co-Location Rule, Bounds and Budget"},
	{ID: InvNetRotation, Label: "N6", Doc: "rotation carries every register forward", Unit: unitRotations,
		Section: "Client-ID Rotation, Override State Durability"},
	{ID: InvNetCanonical, Label: "N7", Doc: "every override group published is canonical at the effective frontier", Unit: unitPublications,
		Section: "Mandatory Canonical Publication, Hierarchical Frontier Rule"},
	{ID: InvNetPeerVerdict, Label: "N8", Doc: "a peer holding only a device's publication derives the device's unread verdicts", Unit: unitStates,
		Section: "Content Validation (256-byte keys), Bounds and Budget (256-byte key limit)"},
	{ID: InvNetVacuous, Label: "N0", Doc: "non-vacuity: some sometimes condition reached", Unit: unitConditions,
		Section: "(the harness: a check that never meets its situation passes vacuously)"},
}

// finding is one violated invariant, by ID, with what was observed: the
// form the checks build, turned into the engine's indexed form at the
// world's boundary (findings are rare, so the lookup costs nothing).
type finding struct {
	Invariant string
	Detail    string
}

// indexed converts findings to the engine's form against a table.
func indexed(table []search.Invariant, fs []finding) []search.Finding {
	if len(fs) == 0 {
		return nil
	}
	out := make([]search.Finding, len(fs))
	for i, f := range fs {
		k := search.Index(table, f.Invariant)
		if k < 0 {
			panic("exhaustive: a check emitted " + f.Invariant + ", which its world's table does not declare") // a programming error
		}
		out[i] = search.Finding{Inv: k, Detail: f.Detail}
	}
	return out
}

// InvariantTable is the invariant table of the world a universe runs in.
func InvariantTable(u Universe) []search.Invariant {
	if u.Network != nil {
		return networkTable
	}
	return referenceTable
}

// UnitName names a unit of the worlds' tables ("states", "registers", ...).
func UnitName(u search.Unit) string { return unitNames[u] }

// KnownInvariant reports whether id names an invariant of either world's
// table: what a classifier of findings checks before it trusts an ID.
func KnownInvariant(id string) bool {
	return search.Index(referenceTable, id) >= 0 || search.Index(networkTable, id) >= 0
}
