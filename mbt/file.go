package mbt

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/printable"
	"github.com/nip-rs/harness/itf"
)

// FileValidation is a log file's validation: the file and the universe it
// was validated in beside what the search found.
type FileValidation struct {
	File, Universe string
	*Validation
}

// ValidateFile reads the log at path and validates it (Validate, at
// DefaultMaxStates) in the universe named universe, looked up in cat but
// for the default, PairUniverse (named "reference", the explorer's
// default, or its own name), under the rule set named rules. A bad name,
// an unreadable or malformed file is an error naming what is wrong, and
// nothing runs.
func ValidateFile(cat *exhaustive.Catalog, path, universe, rules string) (*FileValidation, error) {
	u := PairUniverse()
	if universe != "reference" && universe != u.Name {
		var err error
		if u, err = cat.Universe(universe); err != nil {
			return nil, err
		}
	}
	r, err := cat.Rules(rules)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lg, err := ReadLog(f)
	if err == nil {
		var v *Validation
		if v, err = Validate(u, r, lg, DefaultMaxStates); err == nil {
			return &FileValidation{File: path, Universe: u.Name, Validation: v}, nil
		}
	}
	if IsLogError(err) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return nil, errors.Join(fmt.Errorf("%s", path), err)
}

// WriteText writes the verdict as a reader takes it: explained (and by
// which search), unknown (and which bound stopped it), or the first
// record no behaviour allows with what the model allows there and the
// log up to it. Everything quoted from the log is escaped, so a log
// cannot write control sequences to the terminal.
func (v *FileValidation) WriteText(w io.Writer) {
	switch {
	case v.Unknown != "":
		fmt.Fprintf(w, "%s: unknown in universe %s after %d records explained: %s\n", v.File, v.Universe, v.Records, v.Unknown)
	case v.Unexplained != nil:
		x := v.Unexplained
		fmt.Fprintf(w, "%s: unexplained in universe %s at line %d (step %d, %s, %s)\n", v.File, v.Universe, x.Line, x.Step, x.Device, x.What)
		fmt.Fprintf(w, "  the log says:     %s\n", printable.Escape(x.Says, 2000))
		for i, a := range x.Allows {
			head := "  the model allows: "
			if i > 0 {
				head = "                or: "
			}
			fmt.Fprintf(w, "%s%s\n", head, printable.Escape(a, 2000))
		}
		if x.More > 0 {
			fmt.Fprintf(w, "                and %d more\n", x.More)
		}
		fmt.Fprintf(w, "  witness: the log up to that record (%d lines)\n", len(x.Prefix))
		for _, l := range x.Prefix {
			fmt.Fprintf(w, "    %s\n", printable.Escape(l, 0))
		}
	case v.Guided:
		fmt.Fprintf(w, "%s: explained in universe %s: %d records, found by the log-guided search after %d states\n", v.File, v.Universe, v.Records, v.MaxStates)
	default:
		fmt.Fprintf(w, "%s: explained in universe %s: %d records, at most %d states per record\n", v.File, v.Universe, v.Records, v.MaxStates)
	}
}

// CheckFile reads the ITF trace at path and checks it against the model
// (Check): it returns the number of states when every one agrees, a
// *Divergence (IsDivergence) at the first that does not, and any other
// error, naming the file, for a file that is not a trace of a known
// universe.
func CheckFile(cat *exhaustive.Catalog, path string) (states int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	tr, err := itf.Read(f)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	err = Check(cat, tr)
	if _, ok := IsDivergence(err); ok {
		return 0, err
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return len(tr.States), nil
}
