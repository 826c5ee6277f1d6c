// Command trace prints the traceability table of NIP-RS: every normative
// sentence's requirement (spec/requirements.tsv), grouped by how it is
// enforced (a check a mutant is caught by, tests only, argued only,
// uncheckable here), with counts, then every disagreement between the
// table, the spec text and the repository's checks.
//
// Usage:
//
//	go run ./cmd/trace [-spec ../shared/seeds/NIP-RS.md] [-root .] [-summary]
//
// -h prints a description, examples and the exit codes; -list the
// requirements; -version the build.
//
// Exit status: 0 when the table traces the spec, 1 when it does not (an
// unlisted MUST sentence, a stale row, an unknown check or mutant, a mutant
// none of a row's checks catches), 2 on a usage error or an input that is
// not a spec (unreadable, not text, no normative sentence).
package main
