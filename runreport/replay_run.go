package runreport

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/printable"
	"github.com/nip-rs/harness/witnessfile"
)

// ReplayArgs is one replay of a witness file: the file, the rule set and
// tie policy to re-run it under (nil: the file's own), and the page to
// draw it on ("" for none).
type ReplayArgs struct {
	File       string
	Rules, Tie *string
	HTML       string
}

// ReplayFile re-runs a witness file and writes the report to w: for a
// walk or community lasso (catalog.ReplayLasso) whether its loop is
// reproduced; for any other witness (catalog.Catalog.ReplayUnder) the run
// line, what the replay itself found (ReplayText) and the verdict on a
// stored detail that differs from it (ReplayVerdict). It returns the exit
// code (internal/cli's): 1 when a check fails along the witness or the
// loop repeats, 0 when not; an error is a file, tie or rule set that
// cannot run, or a page that cannot be written (the code is then 2).
func ReplayFile(c *catalog.Catalog, a ReplayArgs, w io.Writer) (int, error) {
	data, err := witnessfile.ReadFile(a.File)
	if err != nil {
		return cli.ExitUsage, fmt.Errorf("%s: %v", a.File, err)
	}
	if kind := catalog.LassoKind(data); kind != "" {
		return replayLasso(a, kind, data, w)
	}
	wf, stored, res, err := c.ReplayUnder(a.File, data, a.Rules, a.Tie)
	if err != nil {
		return cli.ExitUsage, err
	}
	// Every line below may quote the file (its names, its stored detail,
	// a history witness's point): each is escaped as relay text is, so a
	// file cannot write control sequences to the terminal.
	out := printable.Lines(w)
	fmt.Fprintf(out, "explore -replay=%s (version %s)\n", a.File, cli.Version())
	fmt.Fprint(out, ReplayText(wf, stored, res))
	verdict, code := ReplayVerdict(wf, stored, res)
	if a.HTML != "" {
		if err := WritePage(a.HTML, []*witnessfile.Witness{wf}, []*witnessfile.Replayed{res}, []string{verdict}, c.WitnessText); err != nil {
			return cli.ExitUsage, err
		}
		fmt.Fprintf(w, "page written to %s\n", a.HTML)
	}
	fmt.Fprintln(out, verdict)
	return code, nil
}

// replayLasso replays a walk or community lasso under the rule set the
// file names, or the one a.Rules names; a tie policy has no meaning for
// it, and a bad file, tie or rule set writes no page.
func replayLasso(a ReplayArgs, kind string, data []byte, w io.Writer) (int, error) {
	if a.Tie != nil {
		return cli.ExitUsage, fmt.Errorf("%s: a %s lasso replays under a rule set only; -tie has no meaning with it", a.File, kind)
	}
	rules := ""
	if a.Rules != nil {
		rules = *a.Rules
	}
	text, reproduced, err := catalog.ReplayLasso(data, rules)
	if err != nil {
		return cli.ExitUsage, fmt.Errorf("%s: %v", a.File, err)
	}
	if a.HTML != "" {
		if err := WriteLassoPage(a.HTML, data, rules, text, reproduced); err != nil {
			return cli.ExitUsage, err
		}
		fmt.Fprintf(w, "page written to %s\n", a.HTML)
	}
	if !reproduced {
		fmt.Fprintf(w, "not reproduced: %s\n", text)
		return cli.ExitOK, nil
	}
	fmt.Fprintf(w, "%s\nreproduced: the loop repeats for ever under fair scheduling (%s)\n", text, kind)
	return cli.ExitFailed, nil
}
