package mutants

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/model"
)

// TestCommunityMutantsCaught runs each community mutant through the
// community universes alone, as the gate does: the check its catalogue
// entry names catches it, and its golden witness replays under the
// mutant's rules and not under the document's.
func TestCommunityMutantsCaught(t *testing.T) {
	r := &runner{opts: Options{}}
	// The proposal that heals the text's two known rekey findings is the
	// gate's control: its run of these checks is the gate's own finding,
	// made once in the process (sharedControl) whichever of this test and
	// TestGate asks first.
	gate := Options{}
	gate.fill()
	if got := gate.Baseline(model.ClearWins).Community.Name; got != community.Heal().Name {
		t.Fatalf("the gate's control runs the community rules %s, not %s", got, community.Heal().Name)
	}
	ctl := &runner{opts: gate, cache: map[string]*Finding{}, ctl: map[string]*Finding{}}
	checks := map[string]Check{}
	for _, c := range communityChecks() {
		checks[c.Name] = c
		// The control under the text, its two known rekey findings
		// excluded, and under the proposal.
		if f := r.community(c, community.Spec(), nil); f.Caught() {
			t.Errorf("control %s: %s reports %s: %s", community.Spec().Name, c.Name, f.Invariant, f.Detail)
		}
		if f := ctl.controlFinding(c, model.ClearWins); f.Caught() {
			t.Errorf("control %s: %s reports %s: %s", community.Heal().Name, c.Name, f.Invariant, f.Detail)
		}
	}
	for _, c := range communityLivenessChecks() {
		checks[c.Name] = c
		if f := r.communityLiveness(c, community.Spec()); f.Caught() || f.Invariant != "" {
			t.Errorf("control %s: %s reports %s: %s", community.Spec().Name, c.Name, f.Invariant, f.Detail)
		}
		if f := ctl.controlFinding(c, model.ClearWins); f.Caught() || f.Invariant != "" {
			t.Errorf("control %s: %s reports %s: %s", community.Heal().Name, c.Name, f.Invariant, f.Detail)
		}
	}
	for _, m := range Community() {
		if m.Rules().Name != m.ID || m.CommunityRules().Name != m.ID {
			t.Errorf("%s: rule sets not named after the mutant", m.ID)
		}
		if _, ok := CommunityRuleSet(m.ID); !ok {
			t.Errorf("%s: not resolvable for replay", m.ID)
		}
		for _, name := range m.ExpectedBy {
			c, ok := checks[name]
			if !ok {
				t.Errorf("%s: no check %s", m.ID, name)
				continue
			}
			f := r.communityLiveness(c, m.CommunityRules())
			if c.Kind == KindCommunity {
				f = r.community(c, m.CommunityRules(), &m)
			}
			if !f.Caught() {
				t.Errorf("%s: %s does not catch it", m.ID, name)
			}
		}
		base := filepath.Join(goldenDir, m.ID+".clear")
		data, err := os.ReadFile(base + ".json")
		if err != nil {
			t.Error(err)
			continue
		}
		text, err := os.ReadFile(base + ".txt")
		if err != nil {
			t.Error(err)
			continue
		}
		replayCommunityGolden(t, m.ID, data, text)
	}
}

// replayCommunityGolden replays a golden community witness: under the
// rule set it names the violation recurs with the recorded rendering, and
// under the document's it does not recur.
func replayCommunityGolden(t *testing.T, file string, data, text []byte) {
	t.Helper()
	if l, p, err := community.ParseLasso(data); err == nil {
		replayCommunityLasso(t, file, l, p, text)
		return
	}
	w, err := community.Parse(data)
	if err != nil {
		t.Errorf("%s: %v", file, err)
		return
	}
	rules, ok := CommunityRuleSet(w.Rules)
	if !ok {
		t.Errorf("%s: unknown rule set %q", file, w.Rules)
		return
	}
	if rep, err := community.Replay(w, rules); err != nil || !rep.Reproduced || rep.Text != string(text) {
		t.Errorf("%s: under %s: err %v, reproduced %v, rendering equal to the golden text %v", file, w.Rules, err, rep != nil && rep.Reproduced, rep != nil && rep.Text == string(text))
	}
	if rep, err := community.Replay(w, community.Spec()); err != nil || rep.Reproduced {
		t.Errorf("%s: under the document's rules: err %v, reproduced %v", file, err, rep != nil && rep.Reproduced)
	}
}

// replayCommunityLasso replays a golden community lasso: under the rule
// set it names it is a fair loop with the recorded rendering, and under
// the document's rules it is not one.
func replayCommunityLasso(t *testing.T, file string, l *community.Lasso, p *community.Property, text []byte) {
	t.Helper()
	rules, ok := CommunityRuleSet(l.Rules)
	if !ok {
		t.Errorf("%s: unknown rule set %q", file, l.Rules)
		return
	}
	if got, err := community.ReplayLasso(p, l, rules); err != nil || got != string(text) {
		t.Errorf("%s: under %s: err %v, rendering equal to the golden text %v", file, l.Rules, err, got == string(text))
	}
	if _, err := community.ReplayLasso(p, l, community.Spec()); err == nil {
		t.Errorf("%s: the lasso also holds under the document's rules", file)
	}
}
