// Command mutate runs the mutant gate: the production rules as a control,
// then every mutant of the catalogue (mutants.All) against the generic
// suite — every registered explorer universe, every directed and
// conformance cube, the full-state load's property checks — cheapest check
// first. It prints a table (mutant, rule, the check that caught it, witness
// depth, states or points explored, time) and compares each first witness
// with its golden file.
//
//	go run ./cmd/mutate                  # the gate, both tie policies
//	go run ./cmd/mutate -only M1,M3 -tie clear
//	go run ./cmd/mutate -all             # every check for every mutant
//	go run ./cmd/mutate -update          # rewrite the golden witnesses
//	go run ./cmd/mutate -control b-max-frontier # the gate against an amendment
//	go run ./cmd/mutate -control distinct-key-limit # against a reading of the text
//
// With -only the control runs lazily, on the checks the selected mutants
// reach, in the order the full run takes (mutants/lazy.go). -html writes
// the first witnesses as one page; -h lists flags, examples and exit codes.
//
// Exit codes: 0 every mutant caught (or equivalent, as declared) and every
// witness unchanged; 1 a mutant survived, an expected check missed, the
// control tripped a check, or a witness changed; 2 a usage error.
package main
