package main

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/runreport"
)

// report is the run as package runreport writes it.
func (out *outcome) report() *runreport.Run {
	r := &runreport.Run{Run: out.Run, Universe: out.Universe, Explore: out.Explore, Directed: out.Directed, Status: out.Status,
		Files: out.Files, Amendment: out.Amendment, Reading: out.Reading, Diffs: out.Diffs, All: out.All}
	if u, err := cat.Universe(out.Universe); err == nil {
		r.Doc = u.Doc
	}
	for _, nw := range out.witnesses() {
		r.Witnesses = append(r.Witnesses, nw.w)
	}
	return r
}

// writeText writes the run's report after its first line; a witness
// that cannot be rendered is reported on stderr and left out.
func writeText(w io.Writer, out *outcome, stderr io.Writer) {
	out.report().WriteText(w, cat, witnessText, func(err error) { fmt.Fprintln(stderr, "explore: rendering witness:", err) })
}

// writeJSON writes the run as one line of JSON.
func writeJSON(w io.Writer, out *outcome) {
	_ = out.report().WriteJSON(w) // plain data always marshals; stdout's errors are the shell's
}

// amendmentVerdict is the verdict line of a run under an amendment.
func amendmentVerdict(out *outcome) string { return out.report().Verdict(cat) }

// naturalCompare orders labels with their numbers as numbers (-list).
var naturalCompare = runreport.NaturalCompare
