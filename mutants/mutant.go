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
	// ExpectedBy names the generic checks expected to catch the mutant.
	ExpectedBy []string
}

// Rules returns the mutated rule set, named after the mutant.
func (m Mutant) Rules() *model.Rules {
	r := model.Spec().Clone()
	m.Apply(r)
	r.Name = m.ID
	return r
}
