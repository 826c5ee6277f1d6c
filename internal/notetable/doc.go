// Package notetable holds the one test that reads NOTE.md: the note's
// "Pinned figures" table of headline counts (states per universe at the
// depth the gate explores, the gate's checks, the mutants, the vectors by
// kind) must be exactly the table computed from the golden figure files
// the owning packages' tests pin and from the catalogues themselves, so
// the note and the tests cannot disagree. Every other figure lives only in
// a golden file under its package's testdata/figures/.
package notetable
