package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/printable"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/props"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/witnessfile"
)

// amendmentSet is the whole rule set of the amendment named name
// (catalog.AmendmentSet).
func amendmentSet(name string) (ruleset.Set, bool) { return catalog.AmendmentSet(name) }

// otherKinds are the witness kinds of checks that are not a universe's
// (the catalogue replays those: universes.ReplayNamed).
var otherKinds = []string{witnessfile.KindDirected, witnessfile.KindLoad, exhaustive.KindDiff, exhaustive.KindLiveness, exhaustive.KindObservation, props.KindLoadDiff, history.KindWalkDiff}

// replayKinds lists the kinds replay knows, sorted.
func replayKinds() []string {
	ks := append([]string{witnessfile.KindExplore, history.KindHistory, community.KindCommunity}, otherKinds...)
	slices.Sort(ks)
	return ks
}

// replayAny replays a witness: a universe's through the catalogue, any
// other through the package whose check wrote it. The witness's Rules and
// Tie are those to replay under (the file's, or the ones -rules and -tie
// name).
func replayAny(w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	if universes.Writes(w.Kind) {
		return universes.ReplayNamed(w)
	}
	switch w.Kind {
	case witnessfile.KindDirected:
		return directed.Replay(w, cat.Rules)
	case witnessfile.KindLoad:
		return replayLoad(w)
	case exhaustive.KindDiff:
		return exhaustive.ReplayDiff(cat, w, diffSide)
	case exhaustive.KindLiveness:
		return exhaustive.ReplayLivenessFile(cat, w)
	case exhaustive.KindObservation:
		return exhaustive.ReplayObservationFile(cat, w)
	case props.KindLoadDiff:
		return replayLoadDiff(w)
	case history.KindWalkDiff:
		return replayWalkDiff(w)
	}
	return nil, witnessfile.Bad("unknown kind %q (want one of %s)", w.Kind, strings.Join(replayKinds(), ", "))
}

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
	if kind := lassoKind(data); kind != "" {
		if o.isSet("tie") || o.isSet("html") {
			return usageError(stderr, fmt.Errorf("%s: a %s lasso replays under a rule set only; -tie and -html have no meaning with it", o.replay, kind))
		}
		return replayLasso(o, kind, data, stdout, stderr)
	}
	w, err := witnessfile.Parse(data)
	if err != nil {
		return usageError(stderr, fmt.Errorf("%s: %v", o.replay, err))
	}
	stored := *w
	if (w.Kind == exhaustive.KindDiff || w.Kind == props.KindLoadDiff || w.Kind == history.KindWalkDiff) && (o.isSet("rules") || o.isSet("tie")) {
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
	res, err := replayAny(w)
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
	verdict, code := replayVerdict(w, &stored, res)
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

// replayVerdict is the replay's last line and exit code: whether the
// witness's invariant failed again (and whether the stored detail still
// matches), and for a history witness whether that failure is its rule
// set's documented limitation.
func replayVerdict(w, stored *witnessfile.Witness, res *witnessfile.Replayed) (string, int) {
	detail := foundDetail(w.Invariant, res)
	switch {
	case res.Reproduced && detail != stored.Detail && w.Rules == stored.Rules && w.Tie == stored.Tie:
		return fmt.Sprintf("reproduced: %s fails again, but the file's stored detail differs from what the replay found:\n  stored: %s\n  found:  %s", w.Invariant, stored.Detail, detail), exitViolation
	case res.Reproduced && (w.Kind == exhaustive.KindDiff || w.Kind == props.KindLoadDiff || w.Kind == history.KindWalkDiff):
		return "reproduced: the two rule sets differ again, as recorded, after the last step", exitViolation
	case w.Kind == exhaustive.KindDiff || w.Kind == props.KindLoadDiff || w.Kind == history.KindWalkDiff:
		return "not reproduced: the differences after the last step are not the recorded ones (above)", exitOK
	case res.Reproduced && w.Kind == history.KindHistory && documentedLimitation(w):
		return fmt.Sprintf("reproduced: %s fails again, the documented limitation of rules %s", w.Invariant, w.Rules), exitViolation
	case res.Reproduced && w.Kind == exhaustive.KindObservation:
		return fmt.Sprintf("reproduced: observation %s is reached again, first after the last step", w.Invariant), exitViolation
	case w.Kind == exhaustive.KindObservation:
		return fmt.Sprintf("not reproduced: observation %s is not first reached after the last step under rules %s", w.Invariant, w.Rules), exitOK
	case res.Reproduced:
		return fmt.Sprintf("reproduced: %s fails again", w.Invariant), exitViolation
	case len(res.Found) > 0:
		return fmt.Sprintf("not reproduced: %s holds, but the replay found other violations (above)", w.Invariant), exitViolation
	}
	return fmt.Sprintf("not reproduced: %s holds along this witness under rules %s", w.Invariant, w.Rules), exitOK
}

// documentedLimitation: the history witness's invariant is one its rule
// set is documented to break.
func documentedLimitation(w *witnessfile.Witness) bool {
	rules, ok := mutants.HistoryRuleSet(w.Rules)
	return ok && history.Known(rules, w.Invariant)
}

func tieText(t string) string {
	if t == "" {
		return ""
	}
	return ", tie " + t
}

// foundDetail is the replay's detail of invariant: the kind's own, or the
// first finding of that invariant.
func foundDetail(invariant string, res *witnessfile.Replayed) string {
	if res.Detail != "" {
		return res.Detail
	}
	for _, f := range res.Found {
		if d, ok := strings.CutPrefix(f, invariant+": "); ok {
			return d
		}
	}
	return ""
}

// replayLoad re-runs a full-state load witness (props' format) under the
// rule set the witness names.
func replayLoad(w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	var lw props.Witness
	dec := json.NewDecoder(bytes.NewReader(w.Raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&lw); err != nil {
		return nil, witnessfile.Bad("load witness: %v", err)
	}
	if dec.More() {
		return nil, witnessfile.Bad("load witness: trailing data after the witness object")
	}
	// Every parameter within what the searches draw, before anything
	// runs: a cap under the floor would replay as a false counterexample,
	// a huge foreign write as minutes of work.
	if err := props.ValidateWitness(lw); err != nil {
		return nil, witnessfile.Bad("load witness: %v", err)
	}
	if w.Invariant != props.CheckSoundness && w.Invariant != props.CheckQuiescent && w.Invariant != props.CheckTermination && w.Invariant != "stuck" {
		return nil, witnessfile.Bad("load witness: unknown invariant %q (want soundness, quiescent, termination or stuck)", w.Invariant)
	}
	rules, err := cat.Rules(w.Rules)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	if w.Tie != "" {
		t, err := model.ParseTiePolicy(w.Tie)
		if err != nil {
			return nil, witnessfile.Bad("%v", err)
		}
		rules = rules.WithTie(t)
	}
	v, log := props.Replay(lw, rules)
	if v != nil && v.Check == "config" {
		return nil, witnessfile.Bad("load witness: %s", v.Detail)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "witness %s: load check %s, rules %s, %s\n", w.Invariant, lw.Check, w.Rules, lw.Config)
	for _, l := range log {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	res := &witnessfile.Replayed{}
	if v != nil {
		res.Found = []string{v.Check + ": " + v.Detail}
		res.Reproduced = v.Check == w.Invariant
		if res.Reproduced {
			res.Detail = v.Detail
		}
		fmt.Fprintf(&b, "violation %s: %s\n", v.Check, v.Detail)
	} else {
		fmt.Fprintf(&b, "(%s holds along this scenario)\n", w.Invariant)
	}
	res.Text = b.String()
	return res, nil
}
