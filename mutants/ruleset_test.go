package mutants

import (
	"slices"
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/ruleset"
)

// TestControlRunsEveryLayerOfItsSet: the control of a run checks each
// layer of the one rule set it is given, so a change of the walk's rules
// or of the community mechanisms' is checked by their universes exactly as
// a change of the core is by the explorer. The changes are those of H1
// (a walk rule of the text) and K1 (a community rule of the text), made to
// the text as a spec author's amendment of that layer would be: the
// control under each fails its layer's check and no other layer's, and
// the text itself fails neither.
func TestControlRunsEveryLayerOfItsSet(t *testing.T) {
	// The walk's check explores its whole universe, most of this test's
	// time: the quick gate runs it for the walk's amendment only, which it
	// must fail, and the community checks for all three.
	walkFor := func(string) bool { return true }
	if shortrun.On(t, "the walk's check under the walk's amendment only, not under the text and the community amendment") {
		walkFor = func(fails string) bool { return fails == CheckHistory }
	}
	h1, _ := Lookup("H1")
	k1, _ := Lookup("K1")
	checks := map[string]Check{}
	for _, c := range append(historyChecks(), communityChecks()...) {
		checks[c.Name] = c
	}
	for _, tc := range []struct {
		name   string
		change ruleset.Change
		fails  string // the one check of these that must fail
	}{
		{"text", ruleset.Change{}, ""},
		{"walk-amendment", ruleset.Change{History: h1.Change.History}, CheckHistory},
		{"community-amendment", ruleset.Change{Community: k1.Change.Community}, CheckCommunity("epochs")},
	} {
		set := tc.change.Apply(ruleset.Spec(), "test-"+tc.name)
		if got := tc.change.Layers(); (tc.fails == "") != (len(got) == 0) {
			t.Fatalf("%s: layers %v", tc.name, got)
		}
		r := &runner{opts: Options{
			Baseline:     func(tie model.TiePolicy) ruleset.Set { return set.WithTie(tie) },
			BaselineName: set.Name, Ties: []model.TiePolicy{model.ClearWins},
		}, cache: map[string]*Finding{}, ctl: map[string]*Finding{}}
		r.opts.fill()
		var failed []string
		names := make([]string, 0, len(checks))
		for n := range checks {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			if checks[n].Kind == KindHistory && !walkFor(tc.fails) {
				continue
			}
			f := r.controlFinding(checks[n], model.ClearWins)
			if f.Caught() {
				failed = append(failed, n)
				if f.Witness == nil {
					t.Errorf("%s: %s failed with no witness", tc.name, n)
				}
			}
		}
		want := []string{}
		if tc.fails != "" {
			want = []string{tc.fails}
		}
		if !slices.Equal(append([]string{}, failed...), want) {
			t.Errorf("%s: the control failed %v, want %v", tc.name, failed, want)
		}
	}
}
