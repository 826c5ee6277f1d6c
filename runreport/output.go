package runreport

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
)

// NewRun is the run of universe under the rule set named rules, headed by
// the command line run: under an amendment or the other reading of a
// sentence of the text it is judged by its verdict (Judged). all keeps
// one witness per violated invariant.
func NewRun(run, universe, rules string, all bool) *Run {
	r := &Run{Run: run, Universe: universe, All: all}
	if a, ok := amendments.Lookup(rules); ok {
		r.Amendment = &a
	}
	if rd, ok := mutants.LookupReading(rules); ok {
		r.Reading = &rd
	}
	return r
}

// Output is where a finished run goes besides its report: the witness
// directory, the page of its witnesses (nil: none), how a witness is
// rendered, and Warn, told of what could not be written or rendered (the
// report goes on without it).
type Output struct {
	Dir    string
	JSON   bool
	Page   func([]*witnessfile.Witness) error
	Render func(*witnessfile.Witness) (string, error)
	Warn   func(error)
}

// Report finishes the run (Finish), writes its witness files, its page
// and its report to w: the text after its first line, or with o.JSON the
// document. It returns the run's exit code; err is the page's, an error of
// the command's input.
func (r *Run) Report(w io.Writer, cat *exhaustive.Catalog, o Output) (code int, err error) {
	code = r.Finish(cat)
	if err := r.WriteWitnesses(o.Dir, o.Render); err != nil {
		o.Warn(err)
	}
	if o.Page != nil {
		if err := o.Page(r.Witnesses); err != nil {
			return cli.ExitUsage, err
		}
	}
	if o.JSON {
		_ = r.WriteJSON(w) // plain data always marshals; the writer's errors are the caller's
	} else {
		r.WriteText(w, cat, o.Render, func(err error) { o.Warn(fmt.Errorf("rendering witness: %w", err)) })
	}
	return code, nil
}
