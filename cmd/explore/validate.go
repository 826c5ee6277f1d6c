package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/printable"
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

// validateLog runs -validate with the universe and rules the flags name.
func validateLog(file, universe, rules string, stdout, stderr io.Writer) int {
	u := mbt.PairUniverse()
	if universe != "reference" && universe != u.Name {
		var err error
		if u, err = cat.Universe(universe); err != nil {
			return usageError(stderr, err)
		}
	}
	r, err := cat.Rules(rules)
	if err != nil {
		return usageError(stderr, err)
	}
	f, err := os.Open(file)
	if err != nil {
		return usageError(stderr, err)
	}
	defer f.Close()
	lg, err := mbt.ReadLog(f)
	if err == nil {
		var v *mbt.Validation
		if v, err = mbt.Validate(u, r, lg, mbt.DefaultMaxStates); err == nil {
			return reportValidation(file, u, v, stdout)
		}
	}
	if mbt.IsLogError(err) {
		return usageError(stderr, fmt.Errorf("%s: %w", file, err))
	}
	return usageError(stderr, errors.Join(fmt.Errorf("%s", file), err))
}

func reportValidation(file string, u exhaustive.Universe, v *mbt.Validation, stdout io.Writer) int {
	switch {
	case v.Unknown != "":
		fmt.Fprintf(stdout, "%s: unknown in universe %s after %d records explained: %s\n", file, u.Name, v.Records, v.Unknown)
		return exitUnknown
	case v.Unexplained != nil:
		x := v.Unexplained
		fmt.Fprintf(stdout, "%s: unexplained in universe %s at line %d (step %d, %s, %s)\n", file, u.Name, x.Line, x.Step, x.Device, x.What)
		fmt.Fprintf(stdout, "  the log says:     %s\n", printable.Escape(x.Says, 2000))
		for i, a := range x.Allows {
			head := "  the model allows: "
			if i > 0 {
				head = "                or: "
			}
			fmt.Fprintf(stdout, "%s%s\n", head, printable.Escape(a, 2000))
		}
		if x.More > 0 {
			fmt.Fprintf(stdout, "                and %d more\n", x.More)
		}
		fmt.Fprintf(stdout, "  witness: the log up to that record (%d lines)\n", len(x.Prefix))
		for _, l := range x.Prefix {
			fmt.Fprintf(stdout, "    %s\n", printable.Escape(l, 0))
		}
		return exitViolation
	}
	if v.Guided {
		fmt.Fprintf(stdout, "%s: explained in universe %s: %d records, found by the log-guided search after %d states\n", file, u.Name, v.Records, v.MaxStates)
		return exitOK
	}
	fmt.Fprintf(stdout, "%s: explained in universe %s: %d records, at most %d states per record\n", file, u.Name, v.Records, v.MaxStates)
	return exitOK
}
