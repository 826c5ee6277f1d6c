package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/nip-rs/harness/mbt"
)

// validateOptions is -validate LOG: check a client's own NDJSON log
// against the model (package mbt, "Logs").
type validateOptions struct {
	log string
}

func (v *validateOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&v.log, "validate", "", fmt.Sprintf("check a client's NDJSON log (at most %d bytes) against the model: exit 0 when some behaviour explains it, 1 at the first record none allows, 2 for a malformed log, 3 when the search bound is hit; in -universe validate-pair unless a network universe is named", mbt.MaxLogBytes))
}

// validateLog runs -validate (mbt.ValidateFile) with the universe and
// rules the flags name and prints the verdict.
func validateLog(file, universe, rules string, stdout, stderr io.Writer) int {
	v, err := mbt.ValidateFile(cat, file, universe, rules)
	if err != nil {
		return usageError(stderr, err)
	}
	v.WriteText(stdout)
	switch {
	case v.Unknown != "":
		return exitUnknown
	case v.Unexplained != nil:
		return exitViolation
	}
	return exitOK
}
