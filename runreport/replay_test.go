package runreport

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/witnessfile"
)

// The replay's verdict: a failure found again exits 1 (and says when the
// stored detail no longer matches under the stored rules), a difference
// or an observation not found again exits 0, another violation found on
// the way exits 1.
func TestReplayVerdict(t *testing.T) {
	stored := &witnessfile.Witness{Kind: witnessfile.KindExplore, Invariant: "inv", Rules: "spec", Detail: "d"}
	other := *stored
	other.Rules = "proposed"
	diff := &witnessfile.Witness{Kind: exhaustive.KindDiff, Invariant: "diff", Rules: "spec"}
	obs := &witnessfile.Witness{Kind: exhaustive.KindObservation, Invariant: "seen", Rules: "spec"}
	for _, c := range []struct {
		name      string
		w, stored *witnessfile.Witness
		res       witnessfile.Replayed
		code      int
		prefix    string
	}{
		{"again", stored, stored, witnessfile.Replayed{Reproduced: true, Detail: "d"}, cli.ExitFailed, "reproduced: inv fails again"},
		{"detail from findings", stored, stored, witnessfile.Replayed{Reproduced: true, Found: []string{"inv: d"}}, cli.ExitFailed, "reproduced: inv fails again"},
		{"detail differs", stored, stored, witnessfile.Replayed{Reproduced: true, Detail: "e"}, cli.ExitFailed, "reproduced: inv fails again, but the file's stored detail differs"},
		{"other rules", &other, stored, witnessfile.Replayed{Reproduced: true, Detail: "e"}, cli.ExitFailed, "reproduced: inv fails again"},
		{"holds", stored, stored, witnessfile.Replayed{}, cli.ExitOK, "not reproduced: inv holds along this witness under rules spec"},
		{"other violation", stored, stored, witnessfile.Replayed{Found: []string{"x: y"}}, cli.ExitFailed, "not reproduced: inv holds, but"},
		{"diff again", diff, diff, witnessfile.Replayed{Reproduced: true}, cli.ExitFailed, "reproduced: the two rule sets differ again"},
		{"diff not", diff, diff, witnessfile.Replayed{Found: []string{"x: y"}}, cli.ExitOK, "not reproduced: the differences"},
		{"observed", obs, obs, witnessfile.Replayed{Reproduced: true}, cli.ExitFailed, "reproduced: observation seen"},
		{"not observed", obs, obs, witnessfile.Replayed{}, cli.ExitOK, "not reproduced: observation seen"},
	} {
		line, code := ReplayVerdict(c.w, c.stored, &c.res)
		if code != c.code || !strings.HasPrefix(line, c.prefix) || (c.prefix == "reproduced: inv fails again" && line != c.prefix) {
			t.Errorf("%s: %q exit %d, want %q... exit %d", c.name, line, code, c.prefix, c.code)
		}
	}
}

// The replay's text: the witness and the rules it was stored and replayed
// under (the tie only where there is one), the replay's own rendering,
// then every finding or "nothing".
func TestReplayText(t *testing.T) {
	stored := &witnessfile.Witness{Kind: witnessfile.KindExplore, Invariant: "inv", Rules: "spec", Tie: "clear"}
	again := *stored
	again.Rules, again.Tie = "proposed", ""
	for _, c := range []struct {
		w    *witnessfile.Witness
		res  witnessfile.Replayed
		want string
	}{
		{stored, witnessfile.Replayed{Text: "step 1\n", Found: []string{"inv: d", "other: e"}},
			"explore witness of inv, stored under rules spec, tie clear; replayed under rules spec, tie clear\nstep 1\nreplay found:\n  inv: d\n  other: e\n"},
		{&again, witnessfile.Replayed{Text: "step 1\n"},
			"explore witness of inv, stored under rules spec, tie clear; replayed under rules proposed\nstep 1\nreplay found: nothing\n"},
	} {
		if got := ReplayText(c.w, stored, &c.res); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
