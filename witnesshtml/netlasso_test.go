package witnesshtml

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/witnessfile"
)

// The network liveness check's names, repeated in this package so it
// depends on the witness file only, are the check's own.
func TestNetworkLassoNamesAreTheChecks(t *testing.T) {
	if KindNetworkLasso != exhaustive.KindLiveness || invRepublish != exhaustive.InvNoRepublishCycle || invAgreement != exhaustive.InvOverrideReaches {
		t.Errorf("kind %q, invariants %q %q; the check writes %q, %q %q", KindNetworkLasso, invRepublish, invAgreement,
			exhaustive.KindLiveness, exhaustive.InvNoRepublishCycle, exhaustive.InvOverrideReaches)
	}
}

// M32's lasso is read part by part, each step on its lanes with what it
// does, and its harm names the devices, the context and the cost.
func TestRepublishLassoIsReadByPart(t *testing.T) {
	w := storedPage(t, "../mutants/testdata/M32.clear")
	if l := w.Lasso; l == nil || l.Prefix != 1 || l.Approach != 5 || l.Loop != 4 || l.Rest != "" || l.Heads != republishHeads {
		t.Fatalf("lasso %+v", w.Lasso)
	}
	if w.Devices != 2 || len(w.Initial) != 0 || w.Detail != "a fair cycle of 4 system steps with 2 triggered publications and no user action, reached by 1 actions and 5 system steps" {
		t.Errorf("devices %d, initial %q, detail %q", w.Devices, w.Initial, w.Detail)
	}
	want := []struct {
		n                int
		part, action     string
		kind             string
		device, from, to int
		line             string
	}{
		{1, "prefix", "mark_unread d0 c0", "local", 0, -1, -1, "the user marks c0 unread on d0"},
		{2, "approach", "publish d0", "publish", 0, -1, -1, "d0 publishes its canonical state to its peers: no user action asked for it, its trigger fired"},
		{3, "approach", "deliver d0->d1 msg 1", "deliver", -1, 0, 1, "d1 receives message 1 from d0"},
		{8, "loop", "deliver d1->d0 msg 1", "deliver", -1, 1, 0, "d0 receives message 1 from d1"},
		{10, "loop", "deliver d0->d1 msg 1", "deliver", -1, 0, 1, "d1 receives message 1 from d0"},
	}
	if len(w.Steps) != 10 {
		t.Fatalf("%d steps, want 10", len(w.Steps))
	}
	for _, s := range want {
		got := w.Steps[s.n-1]
		if got.N != s.n || got.Part != s.part || got.Action != s.action || got.Kind != s.kind || got.Device != s.device || got.From != s.from || got.To != s.to ||
			len(got.Lines) != 1 || got.Lines[0] != s.line {
			t.Errorf("step %d: %+v", s.n, got)
		}
	}
	harm := []string{
		"after the user marks c0 unread on d0 (step 1), d0 and d1 keep re-publishing to each other for ever with no further user action (steps 7 to 10 repeat for ever): the loop's publications and deliveries return to the state they started from, and nothing ends them",
		"traffic and battery use never stop: every pass of the loop sends 2 publications and 2 deliveries, and ends in the state it began in, so nothing sent changes what any device shows",
	}
	if got := strings.Join(w.Harm, "\n"); got != strings.Join(harm, "\n") {
		t.Errorf("harm:\n%s\nwant:\n%s", got, strings.Join(harm, "\n"))
	}
}

// M33's agreement witness has a stem and no loop: nothing is enabled
// where the stem ends. Its harm names the device that holds the mark, the
// one it never reaches, and the context; the device no step acts on still
// has its lane.
func TestAgreementWitnessSettledApart(t *testing.T) {
	w := storedPage(t, "../mutants/testdata/M33.clear")
	l := w.Lasso
	if l == nil || l.Prefix != 1 || l.Approach != 0 || l.Loop != 0 || l.Rest == "" || l.Heads.Prefix != agreementHeads.Prefix || !strings.HasPrefix(l.Heads.Loop, "loop: none") {
		t.Fatalf("lasso %+v", l)
	}
	if w.Devices != 2 || len(w.Steps) != 1 || w.Steps[0].Device != 0 || w.Steps[0].Part != "prefix" {
		t.Errorf("devices %d, steps %+v", w.Devices, w.Steps)
	}
	harm := []string{
		"the mark unread the user set on d0 at step 1 never reaches d1: no publication or delivery is left to bring them together",
		"one shows c0 unread, the other read, for ever: d0 holds the mark (its override is live) and shows c0 unread even after its newest message is read, while d1 holds none and shows c0 read once that message is read",
	}
	if got := strings.Join(w.Harm, "\n"); got != strings.Join(harm, "\n") {
		t.Errorf("harm:\n%s\nwant:\n%s", got, strings.Join(harm, "\n"))
	}
}

// An agreement witness whose loop is a fair cycle says the devices keep
// acting, and names the devices the other way round when the dead one is
// named first; a mark read that never arrives is said as such.
func TestAgreementWitnessWithALoop(t *testing.T) {
	file := `{"kind":"liveness","universe":"network-pair","depth":4,"tie":"clear","rules":"X","invariant":"override-reaches-every-device",
		"detail":"after 2 user actions and 0 system steps a fair cycle of 2 system steps never brings the devices together: c0 is dead on d0 and live on d1",
		"prefix":[{"action":"mark_unread","device":1,"ctx":"c0"},{"action":"mark_read","device":0,"ctx":"c0"}],"approach":[],
		"loop":[{"action":"publish","device":0},{"action":"deliver","from":0,"to":1,"msg":1}]}`
	text := "agreement witness: universe network-pair, at most 4 user actions, rules X\n" +
		"after 2 user actions and 0 system steps a fair cycle of 2 system steps never brings the devices together: c0 is dead on d0 and live on d1\n" +
		"prefix:\n  1: mark_unread d1 c0\n  2: mark_read d0 c0\nloop:\n  1: publish d0\n  2: deliver d0->d1 msg 1\n"
	w := parsed(t, file, text)
	if l := w.Lasso; l == nil || l.Prefix != 2 || l.Loop != 2 || l.Rest != "" || l.Heads != agreementHeads {
		t.Fatalf("lasso %+v", w.Lasso)
	}
	harm := []string{
		"the mark read the user made on d0 at step 2 never reaches d1, although both devices keep publishing and delivering (steps 3 to 4 repeat for ever)",
		"one shows c0 unread, the other read, for ever: d1 holds the mark (its override is live) and shows c0 unread even after its newest message is read, while d0 holds none and shows c0 read once that message is read",
	}
	if got := strings.Join(w.Harm, "\n"); got != strings.Join(harm, "\n") {
		t.Errorf("harm:\n%s\nwant:\n%s", got, strings.Join(harm, "\n"))
	}
}

// A rendering that says the witness does not hold draws its steps and no
// lasso, and claims no harm; a file whose parts do not match its
// rendering draws the steps without lanes. Neither panics.
func TestNetworkLassoNotHeldOrMismatched(t *testing.T) {
	w, text := stored(t, "../mutants/testdata/M32.clear")
	bad := FromWitness(w, text+"the lasso does not hold: loop step 1: not enabled\n", nil)
	if bad.Lasso != nil || len(bad.Harm) != 0 || len(bad.Steps) != 10 || !strings.HasSuffix(bad.Detail, "the replay: the lasso does not hold: loop step 1: not enabled") {
		t.Errorf("a lasso that does not hold: lasso %+v harm %q detail %q", bad.Lasso, bad.Harm, bad.Detail)
	}
	for _, raw := range []string{`{"kind":"liveness","invariant":"no-republish-cycle","tie":"clear","rules":"M32","detail":"x"}`, `not json`} {
		cp := *w
		cp.Raw = []byte(raw)
		got := FromWitness(&cp, text, nil)
		if got.Lasso == nil || len(got.Steps) != 10 || got.Devices != 0 || got.Steps[1].Kind != "local" || len(got.Steps[1].Lines) != 0 {
			t.Errorf("raw %q: lasso %+v devices %d step 2 %+v", raw, got.Lasso, got.Devices, got.Steps[1])
		}
	}
	// A witness of the kind with no rendering at all.
	empty := FromWitness(&witnessfile.Witness{Kind: KindNetworkLasso, Invariant: invAgreement, Detail: "d"}, "", nil)
	if len(empty.Steps) != 0 || empty.Lasso == nil || empty.Lasso.Rest == "" {
		t.Errorf("empty: %+v", empty)
	}
}
