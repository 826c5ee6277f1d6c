package runreport

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
)

// ReplayText is what a replay prints before its verdict: which witness
// it is and the rules (and tie) it was stored and replayed under, the
// replay's own rendering, and every finding of the replay. w is the
// witness as replayed, stored as the file held it. The text quotes the
// file: a caller escapes it before a terminal sees it.
func ReplayText(w, stored *witnessfile.Witness, res *witnessfile.Replayed) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s witness of %s, stored under rules %s%s; replayed under rules %s%s\n",
		w.Kind, stored.Invariant, stored.Rules, tieText(stored.Tie), w.Rules, tieText(w.Tie))
	b.WriteString(res.Text)
	if len(res.Found) == 0 {
		b.WriteString("replay found: nothing\n")
		return b.String()
	}
	b.WriteString("replay found:\n")
	for _, f := range res.Found {
		fmt.Fprintf(&b, "  %s\n", f)
	}
	return b.String()
}

// tieText names a tie policy after a rule set, when there is one.
func tieText(t string) string {
	if t == "" {
		return ""
	}
	return ", tie " + t
}

// ReplayVerdict is a replay's last line and exit code (internal/cli's):
// whether the witness's invariant failed again, and whether the file's
// stored detail still matches when it ran under the stored rules and tie;
// for a difference witness whether the two rule sets differ again; for
// an observation whether it is reached again; for a history witness
// whether the failure is its rule set's documented limitation. w is the
// witness as replayed, stored as the file held it.
func ReplayVerdict(w, stored *witnessfile.Witness, res *witnessfile.Replayed) (string, int) {
	detail := foundDetail(w.Invariant, res)
	switch {
	case res.Reproduced && detail != stored.Detail && w.Rules == stored.Rules && w.Tie == stored.Tie:
		return fmt.Sprintf("reproduced: %s fails again, but the file's stored detail differs from what the replay found:\n  stored: %s\n  found:  %s", w.Invariant, stored.Detail, detail), cli.ExitFailed
	case res.Reproduced && catalog.IsDiffKind(w.Kind):
		return "reproduced: the two rule sets differ again, as recorded, after the last step", cli.ExitFailed
	case catalog.IsDiffKind(w.Kind):
		return "not reproduced: the differences after the last step are not the recorded ones (above)", cli.ExitOK
	case res.Reproduced && w.Kind == history.KindHistory && documentedLimitation(w):
		return fmt.Sprintf("reproduced: %s fails again, the documented limitation of rules %s", w.Invariant, w.Rules), cli.ExitFailed
	case res.Reproduced && w.Kind == exhaustive.KindObservation:
		return fmt.Sprintf("reproduced: observation %s is reached again, first after the last step", w.Invariant), cli.ExitFailed
	case w.Kind == exhaustive.KindObservation:
		return fmt.Sprintf("not reproduced: observation %s is not first reached after the last step under rules %s", w.Invariant, w.Rules), cli.ExitOK
	case res.Reproduced:
		return fmt.Sprintf("reproduced: %s fails again", w.Invariant), cli.ExitFailed
	case len(res.Found) > 0:
		return fmt.Sprintf("not reproduced: %s holds, but the replay found other violations (above)", w.Invariant), cli.ExitFailed
	}
	return fmt.Sprintf("not reproduced: %s holds along this witness under rules %s", w.Invariant, w.Rules), cli.ExitOK
}

// documentedLimitation: the history witness's invariant is one its rule
// set is documented to break.
func documentedLimitation(w *witnessfile.Witness) bool {
	rules, ok := mutants.HistoryRuleSet(w.Rules)
	return ok && history.Known(rules, w.Invariant)
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
