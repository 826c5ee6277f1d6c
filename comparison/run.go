package comparison

import (
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/internal/cli"
)

// Report is where a command line's comparison goes: the tie flag as
// given (the header repeats it), the witness directory, the page ("" for
// none), and the JSON document instead of the text.
type Report struct {
	Tie        string
	WitnessDir string
	HTML       string
	JSON       bool
}

// Run runs the comparison o names (Compare) and reports it to w: the
// header and the table, or the JSON document; the witness of every
// violated cell is written to r.WitnessDir (warn hears a write that
// failed) and the page to r.HTML. It returns the exit code
// (internal/cli's): 1 when some cell is violated, 3 when none is but a
// run hit its state bound, else 0; an error is input that cannot run or
// a page that cannot be written (the code is then 2).
func Run(o Options, r Report, w io.Writer, warn func(error)) (int, error) {
	t, err := Compare(o)
	if err != nil {
		return cli.ExitUsage, fmt.Errorf("-compare: %v", err)
	}
	head := fmt.Sprintf("explore -compare=%s -universes=%s -depth=%d -tie=%s -workers=%d -max-states=%d (version %s)",
		strings.Join(o.Candidates, ","), strings.Join(t.Universes, ","), o.Depth, r.Tie, o.Workers, o.MaxStates, cli.Version())
	files, err := t.WriteWitnesses(r.WitnessDir)
	if err != nil {
		warn(err)
	}
	if r.HTML != "" {
		if err := t.WriteHTMLFile(r.HTML, head); err != nil {
			return cli.ExitUsage, fmt.Errorf("-html: %v", err)
		}
	}
	if r.JSON {
		if err := t.WriteJSON(w); err != nil {
			return cli.ExitUsage, err
		}
	} else {
		fmt.Fprintln(w, head)
		if err := t.WriteText(w); err != nil {
			return cli.ExitUsage, err
		}
		for _, f := range files {
			fmt.Fprintf(w, "witness written to %s (replay: explore -replay %s)\n", f, f)
		}
		if r.HTML != "" {
			fmt.Fprintf(w, "page written to %s\n", r.HTML)
		}
	}
	switch {
	case t.Violated():
		return cli.ExitFailed, nil
	case t.Unknown():
		return cli.ExitUnknown, nil
	}
	return cli.ExitOK, nil
}
