package ruleset

import (
	"slices"
	"testing"

	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/model"
)

// TestNamedSets: the two names every tool knows resolve to the text and
// to the proposals in every layer, and no other name resolves.
func TestNamedSets(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		model, walk, community string
	}{
		{SpecName, "spec", "spec", "spec"},
		{ProposedName, model.ProposedName, "proposed", "rekey-heal"},
	} {
		s, ok := Named(tc.name)
		if !ok || s.Name != tc.name {
			t.Fatalf("Named(%q) = %q, %v", tc.name, s.Name, ok)
		}
		if s.Model.Name != tc.model || s.History.Name != tc.walk || s.Community.Name != tc.community {
			t.Errorf("%s: layers %q %q %q, want %q %q %q", tc.name, s.Model.Name, s.History.Name, s.Community.Name, tc.model, tc.walk, tc.community)
		}
	}
	if _, ok := Named("M1"); ok {
		t.Error("a mutant's id resolved as a named set")
	}
}

// TestChangeApply: a change alters a copy of the layers it touches, names
// every layer of the result, and leaves its base as it was.
func TestChangeApply(t *testing.T) {
	base := Proposed()
	c := Change{
		Model:     func(r *model.Rules) { r.Tie = model.SetWins },
		Community: func(r *community.Rules) { r.Chain = func(int) bool { return false } },
	}
	if got := c.Layers(); !slices.Equal(got, []Layer{LayerModel, LayerCommunity}) {
		t.Errorf("layers %v", got)
	}
	if !c.Touches(LayerModel) || c.Touches(LayerHistory) || !c.Touches(LayerCommunity) {
		t.Error("Touches disagrees with the change")
	}
	out := c.Apply(base, "amended")
	if out.Model.Tie != model.SetWins || base.Model.Tie == model.SetWins {
		t.Errorf("model layer: amended %v, base %v", out.Model.Tie, base.Model.Tie)
	}
	if out.Community.Chain(1) || !base.Community.Chain(1) {
		t.Error("community layer: the change reached the base or missed the result")
	}
	for _, n := range []string{out.Name, out.Model.Name, out.History.Name, out.Community.Name} {
		if n != "amended" {
			t.Errorf("a layer is named %q", n)
		}
	}
	if base.Name != ProposedName || base.History.Name != "proposed" {
		t.Errorf("base renamed: %q %q", base.Name, base.History.Name)
	}
	var none Change
	if len(none.Layers()) != 0 {
		t.Error("the empty change touches a layer")
	}
}
