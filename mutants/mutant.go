package mutants

import "github.com/nip-rs/harness/model"

// Mutant is one deliberately wrong rule set.
type Mutant struct {
	// ID is short and stable ("M1", "L3"): it names golden witness files.
	ID string
	// Rule is the normative rule the mutant drops, in a few words.
	Rule string
	// Section is the spec section that states the rule.
	Section string
	// Apply changes a clone of the production rules.
	Apply func(r *model.Rules)
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
	// as equivalent instead of failing (NOTE.md, "Mutants", says what wider
	// universe would separate it).
	Equivalent string
}

// Rules returns the mutated rule set, named after the mutant.
func (m Mutant) Rules() *model.Rules {
	r := model.Spec().Clone()
	m.Apply(r)
	r.Name = m.ID
	return r
}
