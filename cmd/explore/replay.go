package main

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/runreport"
)

// replay re-runs a witness file (runreport.ReplayFile) under the rule set
// and tie policy -rules and -tie name, if any. Exit 1 when any check fails
// along the witness (or a lasso's loop repeats), 0 when none does, 2 when
// the file or a flag is bad.
func replay(o *options, stdout, stderr io.Writer) int {
	// The rule set and tie policy to re-run the witness under, and the
	// page, mean something; a witness names its own universe and bounds.
	if f := cli.Unmeant(o.set, "replay", "rules", "tie", "html"); f != "" {
		return usageError(stderr, fmt.Errorf("-%s has no meaning with -replay (a witness names its own universe and bounds; -rules and -tie re-run it under others)", f))
	}
	a := runreport.ReplayArgs{File: o.replay, HTML: o.html}
	if o.isSet("rules") {
		a.Rules = &o.rules
	}
	if o.isSet("tie") {
		a.Tie = &o.tie
	}
	code, err := runreport.ReplayFile(universes, a, stdout)
	if err != nil {
		return usageError(stderr, err)
	}
	return code
}
