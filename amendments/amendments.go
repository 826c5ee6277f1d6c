package amendments

import (
	"fmt"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/ruleset"
)

// Amendment is one proposed change to the spec's rules.
type Amendment struct {
	// Name is what -rules and -control take; it names no mutant.
	Name string
	// Title says the change in one line.
	Title string
	// Section is the spec section the amendment rewrites.
	Section string
	// Rationale says why one would make the change.
	Rationale string
	// Change is what the amendment does to the production rules, in any
	// layer: the override layer and the load, the paged history walk, the
	// community mechanisms (ruleset.Change). Every tool runs every layer
	// of the amended set (Set).
	Change ruleset.Change
	// Tie, when Pinned, is the one tie policy the amendment runs under:
	// the amendment decides the policy itself.
	Tie    model.TiePolicy
	Pinned bool
}

// list is every amendment, in the order -list shows them. One line per
// amendment file.
var list = []func() Amendment{
	BMaxFrontier,
	SetWinsEverywhere,
	RefuseUnreadNeverRead,
	MarkReadOwnCounter,
}

// All returns every amendment.
func All() []Amendment {
	out := make([]Amendment, len(list))
	for i, f := range list {
		out[i] = f()
	}
	return out
}

// Lookup finds an amendment by name.
func Lookup(name string) (Amendment, bool) {
	for _, a := range All() {
		if a.Name == name {
			return a, true
		}
	}
	return Amendment{}, false
}

// Set returns the amended rule set, every layer, named after the
// amendment, under tie (or the amendment's own policy when it pins one):
// the change applied to ruleset.Proposed.
func (a Amendment) Set(tie model.TiePolicy) ruleset.Set {
	s := a.Change.Apply(ruleset.Proposed().WithTie(tie), a.Name)
	if a.Pinned {
		s = s.WithTie(a.Tie)
	}
	return s
}

// Rules returns the amended override layer and load rules, named after
// the amendment, under tie: Set's model layer.
func (a Amendment) Rules(tie model.TiePolicy) *model.Rules { return a.Set(tie).Model }

// Ties is the tie policies a run of the amendment covers: its pinned one,
// or those asked for.
func (a Amendment) Ties(asked []model.TiePolicy) []model.TiePolicy {
	if a.Pinned {
		return []model.TiePolicy{a.Tie}
	}
	return asked
}

// Baseline is the production rule set an amendment run under tie is
// compared with: the spec under the same tie, or under the spec's own
// policy when the amendment decides ties itself.
func (a Amendment) Baseline(tie model.TiePolicy) *model.Rules {
	if a.Pinned {
		return model.Proposed()
	}
	return model.Proposed().WithTie(tie)
}

// Register adds every amendment's rule set to cat, or adds none and
// reports the first amendment whose name is empty, repeats another's, or is
// already a rule set of cat ("spec", a mutant's id): -rules and -control
// take the name, so two meanings for one name would make both ambiguous.
func Register(cat *exhaustive.Catalog) error { return register(cat, All()) }

func register(cat *exhaustive.Catalog, as []Amendment) error {
	have := map[string]string{}
	for _, n := range cat.RulesNames() {
		have[n] = "a rule set of the catalogue (spec, a mutant, a test's)"
	}
	for i, a := range as {
		if a.Name == "" {
			return fmt.Errorf("amendments: amendment %d (%q) has no name", i+1, a.Title)
		}
		if what, dup := have[a.Name]; dup {
			return fmt.Errorf("amendments: the name %q of amendment %q is already %s; every amendment needs a name of its own", a.Name, a.Title, what)
		}
		have[a.Name] = fmt.Sprintf("the name of amendment %q", a.Title)
	}
	for _, a := range as {
		cat.AddRules(a.Name, func() *model.Rules { return a.Rules(model.ClearWins) })
	}
	return nil
}

// TextDifferences are the differences from the spec's text that the
// amendment makes by construction and that no conformance check can see,
// because every check runs under the amendment's own policy: deciding
// ties by another policy than the text's clear-wins (Tie Policy).
func (a Amendment) TextDifferences() []string {
	if a.Pinned && a.Tie != model.Spec().Tie {
		return []string{fmt.Sprintf("Tie Policy: the text decides a set/clear tie as %s, the amendment as %s", model.Spec().Tie, a.Tie)}
	}
	return nil
}

// RulesUnder is the rule set cat names (exhaustive.Catalog.RuleSet) as a
// side of a difference search under tie: an amendment that decides ties
// itself runs under its own policy, every other set under tie.
func RulesUnder(cat *exhaustive.Catalog, name string, tie model.TiePolicy) (*model.Rules, error) {
	r, err := cat.RuleSet(name)
	if err != nil {
		return nil, err
	}
	if am, ok := Lookup(name); ok && am.Pinned {
		return r.WithTie(am.Tie), nil
	}
	return r.WithTie(tie), nil
}
