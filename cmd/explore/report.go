package main

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/runreport"
)

// writeText writes the run's report after its first line; a witness
// that cannot be rendered is reported on stderr and left out.
func writeText(w io.Writer, out *runreport.Run, stderr io.Writer) {
	out.WriteText(w, cat, witnessText, func(err error) { fmt.Fprintln(stderr, "explore: rendering witness:", err) })
}

// writeJSON writes the run as one line of JSON.
func writeJSON(w io.Writer, out *runreport.Run) {
	_ = out.WriteJSON(w) // plain data always marshals; stdout's errors are the shell's
}
