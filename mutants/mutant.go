package mutants

import (
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/ruleset"
)

// Mutant is one deliberately wrong rule set.
type Mutant struct {
	// ID is short and stable ("M1", "L3"): it names golden witness files.
	ID string
	// Rule is the normative rule the mutant drops, in a few words.
	Rule string
	// Section is the spec section that states the rule.
	Section string
	// Change is what the mutant does to the rule set it is checked on,
	// in the layers it touches: a change of the core (model.Rules) is
	// checked by the explorer, the directed checks and the load searches;
	// one of the paged history walk's rules (history.go) by the walk's
	// universe only; one of the community mechanisms' (community.go) by
	// the community universes only.
	Change ruleset.Change
	// OneDevice applies the mutant to a single installation only (device 0),
	// the others keeping the production rules: for rules whose breakage shows
	// only as disagreement between peers (a replica deciding ties by set-wins
	// among clear-wins peers).
	OneDevice bool
	// ExpectedBy names every generic check expected to catch the mutant
	// under clear-wins (Check names: "directed:<key>", "explore:<universe>",
	// "load:<check>"); the gate runs each and requires it to catch.
	ExpectedBy []string
	// Equivalent, when set, says why no history the modelled universes can
	// reach tells the mutant apart from the production rules under
	// clear-wins: it is expected to survive there, and the runner reports it
	// as equivalent instead of failing (NOTE.md, "The equivalent mutant",
	// says why no universe separates it).
	Equivalent string
	// SetWinsEquivalent, when set, says why no history tells the mutant
	// apart from the production rules under set-wins: it is expected to
	// survive there and is reported as equivalent under set-wins, with
	// this reason.
	SetWinsEquivalent string
}

// EquivalentUnder is why the mutant is expected to survive under tie, or
// "" when it is expected to be caught.
func (m Mutant) EquivalentUnder(tie model.TiePolicy) string {
	if tie == model.SetWins {
		return m.SetWinsEquivalent
	}
	return m.Equivalent
}

// Rules returns the mutated rule set, named after the mutant, under the
// production tie policy unless the mutant sets its own.
func (m Mutant) Rules() *model.Rules { return m.RulesUnder(model.ClearWins) }

// RulesUnder returns the mutated rule set for a run under tie. The
// production rules take the run's tie first and the mutant's change is
// applied after it, so a mutant that sets Tie itself (M3) keeps its own
// policy under every run, and every other mutant follows the run's.
func (m Mutant) RulesUnder(tie model.TiePolicy) *model.Rules {
	r := model.Proposed().WithTie(tie)
	m.Change.ApplyModel(r)
	r.Name = m.ID
	return r
}

// RunRules is the rule set a run under tie checks the mutant with. A
// one-device mutant is not the run's rule set: the run keeps the
// production rules under its tie, and device 0 of the variant universe
// decides through RulesUnder of that tie (registry.go).
func (m Mutant) RunRules(tie model.TiePolicy) *model.Rules {
	if m.OneDevice {
		return model.Proposed().WithTie(tie)
	}
	return m.RulesUnder(tie)
}

// Set is the mutant's whole rule set under the production tie policy
// (RulesUnder for a run under another).
func (m Mutant) Set() ruleset.Set { return m.SetUnder(model.ClearWins) }

// SetUnder is the rule set, every layer, the mutant changes, with its
// change applied and every layer named after it: the core's is
// RulesUnder's; the walk's is the text's or the proposal's, whichever the
// rule it drops belongs to (historyBase); the community mechanisms' the
// text's, whose rules the community mutants drop. A layer the mutant does
// not touch is the production rule set's, unchanged.
func (m Mutant) SetUnder(tie model.TiePolicy) ruleset.Set {
	base := ruleset.Proposed().WithTie(tie)
	if m.Change.History != nil {
		base.History = historyBase(m.ID)
	}
	if m.Change.Community != nil {
		base.Community = community.Spec()
	}
	return m.Change.Apply(base, m.ID)
}

// Checks reports whether check c can tell the mutant from its baseline:
// a check of the layer the mutant changes (the explorer, directed checks,
// simulations and load searches for the core, the walk's universe for the
// walk's rules, the community universes for the community's).
func (m Mutant) Checks(c Check) bool {
	switch c.Kind {
	case KindHistory, KindWalkLiveness:
		return m.Change.Touches(ruleset.LayerHistory)
	case KindCommunity, KindCommunityLiveness:
		return m.Change.Touches(ruleset.LayerCommunity)
	}
	return m.Change.Touches(ruleset.LayerModel)
}
