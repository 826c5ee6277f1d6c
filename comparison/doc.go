// Package comparison computes the formal note's invariant table for any
// set of candidates: a column per candidate and tie policy, a row per
// invariant (the note's I1-I8, identity-free verdicts, and the network
// universes' checks), each cell holds, violated (with the length of the
// smallest witness the search found), not checked, or not applicable (with
// why).
//
// A candidate is a wire encoding with a rule set: "A" (package candidate's
// encoding A), "B" (the spec's encoding under the production rules), or the
// name of any rule set of the catalogue (an amendment, a mutant), which runs
// under encoding B. A B-encoded candidate runs everything the project runs
// for the spec: the production explorer on every universe asked for, every
// directed check, and the encoding world with its generic checks and cubes.
// Candidate A runs what its encoding can: the encoding world on the
// universes without a network, and the cubes.
//
// Run is a command line's comparison: the table reported with its header,
// witness files and page, and the exit code (run.go).
package comparison
