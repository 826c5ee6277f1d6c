// Package gen generates the language-neutral conformance vectors under
// vectors/ and replays them against any rule set.
//
// Every vector is an input and the output the production core
// (model.Proposed()) computes from it; its proposals member names the
// proposals of model.Proposals that output needs (none: it holds under
// model.Spec() too). A kind (codec, register, slots, events)
// owns a list of cases and one compute function from a rule set and an
// input to an output; generation runs compute under model.Proposed(), and the
// runner runs it under the rule set being checked and compares. The input a
// vector records is the very JSON compute reads, so a client in another
// language sees exactly what the Go core decided from.
//
// Vocabulary lists every code an output member can take, from the
// enumerations of the code producing it, with its meaning and section;
// it is written as vectors/VOCABULARY.md beside the files, with the
// conventions of comparison every kind shares.
//
// Every mutant of the catalogue fails at least one vector, none listed as
// uncatchable; L14 (a wait that sends nothing) is caught through the
// frames after which a load of several passes waits its gap. The first
// vectors to catch a mutant serve as its witnesses: L1, L3, L7 and L9 on
// L1's; L5, L8 and L11 on L3's; L10 on L5's; H5 and H10 on H4's; H11 on
// H1's. go run ./cmd/vectors -check -rules L9 lists what one mutant fails,
// and go run ./cmd/vectors -coverage maps each vector's section to the rows
// of spec/requirements.tsv. The vectors also cite sections with no row
// there (Liveness Predicate, Legacy Clients, Event Structure, the history
// walk's document).
package gen
