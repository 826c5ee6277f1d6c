// Package figures computes every figure of the formal note on the override
// layer (the reference's NOTE.md: bytes per context for both candidates,
// counter headroom, the 256-byte key hazard, the 10,000-key table, the
// legacy trim table and the tombstone costs) with the production core:
// model.EncodedSize for bytes, model.SplitBlob under model.DefaultBudget
// for what a coordinate holds, model.LegacyTrim for a legacy client, and
// the codec's limits (model.MaxKeyBytes, model.MaxEntries, model.MaxU32).
//
// Each table is a function; Section renders them all as one Markdown
// document, "The formal note's figures, computed", pinned byte for byte in
// testdata/figures/formal-note.md (go test ./figures/ -update rewrites it). Where a figure differs from the formal note's,
// the table says why in one line.
package figures
