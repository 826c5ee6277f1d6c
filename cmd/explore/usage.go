package main

import (
	"flag"
	"fmt"
)

// usage is -h: what the command does, how to call it, its flags and its
// exit codes.
func usage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprint(w, `explore: the bounded explorer of NIP-RS. It visits every state a universe
(devices, contexts, values, a network) can reach within a depth bound under a
rule set, checks every invariant at every state, then runs the directed and
conformance cubes. A violation is printed as a witness and written as JSON;
-replay re-runs one. Progress goes to standard error; Ctrl-C prints what was
done so far.

examples:
  go run ./cmd/explore                                   # reference universe, both ties, every cube
  go run ./cmd/explore -universe network -depth 6        # the in-flight network universe
  go run ./cmd/explore -rules b-max-frontier             # an amendment as the rule set (see -list)
  go run ./cmd/explore -rules M6 -universe network -depth 4 -all  # a witness per violated invariant
  go run ./cmd/explore -replay mutants/testdata/M3.clear.json -rules spec
  go run ./cmd/explore -list                             # universes, rule sets, invariants, cubes

flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(w, `
exit codes:
  0  every check passed (with -replay: nothing fails along the witness)
  1  a violation (with -replay: the witness, or another check, fails)
  2  usage or input error: unknown flag, universe, rule set, invariant;
     a witness file that does not parse or fit; a flag -replay cannot honour
  3  unknown: a state bound (-max-states, on by default) was hit, or the run
     was interrupted, before the depth bound
`)
}
