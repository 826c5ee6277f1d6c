package main

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/printable"
	"github.com/nip-rs/harness/runreport"
	"github.com/nip-rs/harness/witnessfile"
)

// replay re-runs a witness file (catalog.ReplayUnder), prints what the
// replay itself found (runreport.ReplayText), and flags a stored detail
// that differs from it (runreport.ReplayVerdict). Exit 1 when any check
// fails along the witness, 0 when none does, 2 when the file or a flag is
// bad.
func replay(o *options, stdout, stderr io.Writer) int {
	// The rule set and tie policy to re-run the witness under, and the
	// page, mean something; a witness names its own universe and bounds.
	if f := cli.Unmeant(o.set, "replay", "rules", "tie", "html"); f != "" {
		return usageError(stderr, fmt.Errorf("-%s has no meaning with -replay (a witness names its own universe and bounds; -rules and -tie re-run it under others)", f))
	}
	data, err := witnessfile.ReadFile(o.replay)
	if err != nil {
		return usageError(stderr, fmt.Errorf("%s: %v", o.replay, err))
	}
	if kind := catalog.LassoKind(data); kind != "" {
		return replayLasso(o, kind, data, stdout, stderr)
	}
	var rules, tie *string
	if o.isSet("rules") {
		rules = &o.rules
	}
	if o.isSet("tie") {
		tie = &o.tie
	}
	w, stored, res, err := universes.ReplayUnder(o.replay, data, rules, tie)
	if err != nil {
		return usageError(stderr, err)
	}
	// Every line below may quote the file (its names, its stored detail,
	// a history witness's point): each is escaped as relay text is, so a
	// file cannot write control sequences to the terminal.
	out := printable.Lines(stdout)
	fmt.Fprintf(out, "explore -replay=%s (version %s)\n", o.replay, cli.Version())
	fmt.Fprint(out, runreport.ReplayText(w, stored, res))
	verdict, code := runreport.ReplayVerdict(w, stored, res)
	if o.html != "" {
		if err := writeHTML(o.html, []*witnessfile.Witness{w}, []*witnessfile.Replayed{res}, []string{verdict}); err != nil {
			return usageError(stderr, err)
		}
		fmt.Fprintf(stdout, "page written to %s\n", o.html)
	}
	fmt.Fprintln(out, verdict)
	return code
}

// replayLasso replays a walk or community lasso (catalog.ReplayLasso)
// under the rule set the file names, or the one -rules names: exit 1 when
// the loop is reproduced, 0 when it is not, 2 when the file, -tie or the
// rule set is bad (and -html then writes no page).
func replayLasso(o *options, kind string, data []byte, stdout, stderr io.Writer) int {
	if o.isSet("tie") {
		return usageError(stderr, fmt.Errorf("%s: a %s lasso replays under a rule set only; -tie has no meaning with it", o.replay, kind))
	}
	rules := ""
	if o.isSet("rules") {
		rules = o.rules
	}
	text, reproduced, err := catalog.ReplayLasso(data, rules)
	if err != nil {
		return usageError(stderr, fmt.Errorf("%s: %v", o.replay, err))
	}
	if o.html != "" {
		if err := writeLassoHTML(o.html, data, rules, text, reproduced); err != nil {
			return usageError(stderr, err)
		}
		fmt.Fprintf(stdout, "page written to %s\n", o.html)
	}
	switch {
	case !reproduced:
		fmt.Fprintf(stdout, "not reproduced: %s\n", text)
		return exitOK
	}
	fmt.Fprintf(stdout, "%s\nreproduced: the loop repeats for ever under fair scheduling (%s)\n", text, kind)
	return exitViolation
}
