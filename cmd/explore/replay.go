package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/printable"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/runreport"
	"github.com/nip-rs/harness/witnessfile"
)

// replayFlags are the flags that mean something with -replay: the rule
// set and tie policy to re-run the witness under, and the HTML page.
var replayFlags = map[string]bool{"replay": true, "rules": true, "tie": true, "html": true}

// replay re-runs a witness file, prints what the replay itself found, and
// flags a stored detail that differs from it. Exit 1 when any check fails
// along the witness, 0 when none does, 2 when the file or a flag is bad.
func replay(o *options, stdout, stderr io.Writer) int {
	for _, f := range o.set {
		if !replayFlags[f] {
			return usageError(stderr, fmt.Errorf("-%s has no meaning with -replay (a witness names its own universe and bounds; -rules and -tie re-run it under others)", f))
		}
	}
	data, err := witnessfile.ReadFile(o.replay)
	if err != nil {
		return usageError(stderr, fmt.Errorf("%s: %v", o.replay, err))
	}
	if kind := catalog.LassoKind(data); kind != "" {
		if o.isSet("tie") {
			return usageError(stderr, fmt.Errorf("%s: a %s lasso replays under a rule set only; -tie has no meaning with it", o.replay, kind))
		}
		return replayLasso(o, kind, data, stdout, stderr)
	}
	w, err := witnessfile.Parse(data)
	if err != nil {
		return usageError(stderr, fmt.Errorf("%s: %v", o.replay, err))
	}
	stored := *w
	if catalog.IsDiffKind(w.Kind) && (o.isSet("rules") || o.isSet("tie")) {
		// Its replay runs the two rule sets (and the tie) the file names;
		// another name would be printed as replayed and not be.
		return usageError(stderr, fmt.Errorf("%s: a %s witness replays under the two rule sets it names; -rules and -tie have no meaning with it", o.replay, w.Kind))
	}
	if o.isSet("rules") {
		// A history or community witness names its own package's rule
		// sets (its replayer refuses an unknown one as a bad witness);
		// every other kind names the catalogue's.
		if _, err := cat.Rules(o.rules); err != nil && w.Kind != history.KindHistory && w.Kind != mutants.KindCommunity {
			return usageError(stderr, fmt.Errorf("-rules: %v", err))
		}
		w.Rules = o.rules
	}
	if o.isSet("tie") {
		if _, err := model.ParseTiePolicy(o.tie); err != nil {
			return usageError(stderr, fmt.Errorf("-tie with -replay: %v (one policy: clear or set)", err))
		}
		w.Tie = o.tie
	}
	res, err := universes.Replay(w)
	if err != nil {
		return usageError(stderr, fmt.Errorf("%s: %v", o.replay, err))
	}
	// Every line below may quote the file (its names, its stored detail,
	// a history witness's point): each is escaped as relay text is, so a
	// file cannot write control sequences to the terminal.
	out := escapedLines{stdout}
	fmt.Fprintf(out, "explore -replay=%s (version %s)\n", o.replay, cli.Version())
	fmt.Fprintf(out, "%s witness of %s, stored under rules %s%s; replayed under rules %s%s\n",
		w.Kind, stored.Invariant, stored.Rules, tieText(stored.Tie), w.Rules, tieText(w.Tie))
	fmt.Fprint(out, res.Text)
	if len(res.Found) == 0 {
		fmt.Fprintln(out, "replay found: nothing")
	} else {
		fmt.Fprintln(out, "replay found:")
		for _, f := range res.Found {
			fmt.Fprintf(out, "  %s\n", f)
		}
	}
	verdict, code := runreport.ReplayVerdict(w, &stored, res)
	if o.html != "" {
		if err := writeHTML(o.html, []*witnessfile.Witness{w}, []*witnessfile.Replayed{res}, []string{verdict}); err != nil {
			return usageError(stderr, err)
		}
		fmt.Fprintf(stdout, "page written to %s\n", o.html)
	}
	fmt.Fprintln(out, verdict)
	return code
}

// escapedLines writes each line it is given escaped by printable.Escape
// (the newlines that end lines kept, everything else that is not
// printable shown as an escape), so that what it prints holds no control
// character whatever the witness file held.
type escapedLines struct{ w io.Writer }

func (e escapedLines) Write(p []byte) (int, error) {
	lines := strings.SplitAfter(string(p), "\n")
	var b strings.Builder
	for _, l := range lines {
		body, nl := strings.CutSuffix(l, "\n")
		b.WriteString(printable.Escape(body, 0))
		if nl {
			b.WriteByte('\n')
		}
	}
	if _, err := io.WriteString(e.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

func tieText(t string) string {
	if t == "" {
		return ""
	}
	return ", tie " + t
}
