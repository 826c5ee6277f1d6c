package main

// The mutant catalogue registers every mutant's rules, and its one-device
// universe variants, with the explorer, so that -replay resolves the
// mutants' witnesses (mutants/testdata) and -rules can name a mutant.
import _ "github.com/nip-rs/harness/mutants"
