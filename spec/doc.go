// Package spec maps every normative sentence of NIP-RS (each MUST, MUST
// NOT and SHOULD) to the checks that enforce it, or to the reason none can
// here.
//
// The map is requirements.tsv, embedded. Each row names a sentence by its
// section and a fingerprint of its normalised text (Fingerprint), never by
// its wording, with a paraphrase of its own. The package's test reads the
// spec text beside the repository and fails when a MUST sentence has no
// row (an edit of a MUST changes its fingerprint, so the edited sentence
// shows up as unlisted and its old row as stale), when a row names a
// check that does not exist, or when a row claims checks and no catalogued
// mutant is caught by one of them without the row saying why.
// cmd/trace prints the table.
package spec
