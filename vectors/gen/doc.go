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
package gen
