package community

import (
	"strings"
	"testing"
)

// TestLiveSafetyFace is why no rule change of the live universe is caught
// by the live property alone: from every state the property starts at
// with a current plane missing from the installed REQ, short of the depth
// bound, publishing on that plane's channel is enabled and W1 reports the
// wrap the REQ does not match. Publishing does not consult the rules, so
// the argument holds for any rule that leaves the REQ stale; only a REQ
// first left stale at the bound's last step escapes, an artefact of the
// bound, not a rule.
func TestLiveSafetyFace(t *testing.T) {
	p := LiveProperty()
	u := p.Universe()
	r := noReinstall()
	faced, atBound := 0, 0
	roots, err := reachedRoots(u, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range roots {
		if !p.Pending(r, rt.state) {
			continue
		}
		if len(rt.path) >= u.Depth {
			atBound++
			continue
		}
		s, _ := rt.state.(*liveState)
		miss := s.missing(r)
		caught := false
		for _, a := range u.Actions {
			if a.Name != "pub0" && a.Name != "pub1" || int(a.Name[3]-'0') != miss[0].Channel {
				continue
			}
			if _, ok, found := u.Step(r, rt.state, a); ok && len(found) > 0 && found[0].Invariant == InvLiveCovers {
				caught = true
			}
		}
		if !caught {
			t.Fatalf("a stale REQ W1 cannot see at depth %d: %s", len(rt.path), rt.state)
		}
		faced++
	}
	if faced == 0 || atBound == 0 {
		t.Fatalf("nothing was tested: %d stale states short of the bound, %d at it", faced, atBound)
	}
}

// TestNoReinstallQuietOnlyLiveness: in a community that goes quiet after a
// rotation, a rotation that leaves the live REQ on the old planes breaks no
// safety check (no wrap on the new plane arrives to miss), and the live
// property finds it by a fair loop of rounds. The document's rules and
// rekey-heal pass both, with the premise met.
func TestNoReinstallQuietOnlyLiveness(t *testing.T) {
	u := LiveQuietUniverse(5)
	skip := func(inv string) bool { return Known(Spec(), inv) }
	for _, r := range []*Rules{Spec(), Heal(), noReinstall()} {
		if res := Explore(u, r, skip, false); res.Witness != nil || res.Violating != 0 || res.Distinct == 0 {
			t.Fatalf("%s: safety of %s: %d violating, witness %+v", r.Name, u.Name, res.Violating, res.Witness)
		}
	}
	for _, tc := range []struct {
		rules *Rules
		want  string
	}{
		{Spec(), "live-quiet live-quiet spec: ok roots=8690 triggered=3453 pending=0 edges=0 met=0 cyclic=0 unfair=0 fair=0"},
		{Heal(), "live-quiet live-quiet rekey-heal: ok roots=8690 triggered=3453 pending=0 edges=0 met=0 cyclic=0 unfair=0 fair=0"},
		{noReinstall(), "live-quiet live-quiet no-reinstall: violation roots=9258 triggered=2082 pending=1155 edges=2310 met=0 cyclic=742 unfair=565 fair=177"},
	} {
		res, err := CheckLiveness(LiveQuietProperty(), tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		if got := livenessRow(res); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
		if res.Triggered == 0 {
			t.Errorf("%s: no rotation delivered while a REQ is installed", tc.rules.Name)
		}
		if res.Witness == nil {
			continue
		}
		text, err := ReplayLasso(LiveQuietProperty(), res.Witness, tc.rules)
		if err != nil || !strings.Contains(text, "the loop returns to its first state, fair") {
			t.Fatalf("replay: %v\n%s", err, text)
		}
		if _, err := ReplayLasso(LiveQuietProperty(), res.Witness, Spec()); err == nil {
			t.Errorf("%s: the lasso also holds under the document's rules", tc.rules.Name)
		}
	}
}
