package main

import (
	"flag"
	"fmt"
)

// usage is -h: what the command does, how to call it, its flags and its
// exit codes.
func usage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprint(w, `mutate: the mutant gate. The control (the production rules, or an
amendment with -control) runs every generic check: every explorer universe,
every directed and conformance cube, the full-state load's property checks.
Then every mutant of the catalogue runs against the same checks, cheapest
first, until one catches it; first witnesses are compared with their golden
files (mutants/testdata). Progress goes to standard error.

examples:
  go run ./cmd/mutate                          # the gate, both tie policies (~30 s)
  go run ./cmd/mutate -only M17 -tie clear     # one mutant; the control runs only where needed
  go run ./cmd/mutate -control b-max-frontier  # the whole gate with an amendment as the baseline
  go run ./cmd/mutate -list                    # mutants, amendments and checks, one line each
  go run ./cmd/mutate -update                  # rewrite the golden witnesses

flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
exit codes:
  0  every mutant caught (or equivalent, as declared), every witness unchanged
  1  a mutant survived, an expected check missed, the control tripped a check,
     or a witness changed
  2  usage error (unknown flag, mutant or amendment; bad value)
`)
}
