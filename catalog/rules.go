package catalog

import (
	"fmt"
	"slices"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/ruleset"
)

// WalkRuleNames are the rule sets the walk universe takes by name, in
// the order they are listed: the walk's own three, every amendment (its
// walk layer: proposed's, or its change of it), every history mutant.
func WalkRuleNames() []string {
	names := []string{"spec", "healing", "proposed"}
	for _, a := range amendments.All() {
		names = append(names, a.Name)
	}
	for _, m := range mutants.All() {
		if m.Change.History != nil {
			names = append(names, m.ID)
		}
	}
	return names
}

// Findings formats the summary's violations as "ID (N times)": those the
// rule set is documented to break and the rest, each sorted.
func (s *Summary) Findings() (documented, broken []string) {
	format := func(v map[string]int64) []string {
		var out []string
		for id, n := range v {
			times := "times"
			if n == 1 {
				times = "time"
			}
			out = append(out, fmt.Sprintf("%s (%s %s)", id, num.Commas(n), times))
		}
		slices.Sort(out)
		return out
	}
	return format(s.Documented), format(s.Violations)
}

// ViolatedIDs are the invariants the summary found violated, sorted.
func (s *Summary) ViolatedIDs() []string {
	var ids []string
	for id := range s.Violations {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// RuleSet is the rule set name names for the entry's layer under tie: an
// amendment (whose change may be to any layer), a mutant of this layer
// (one of another layer would change nothing here, and is refused), a
// rule set every layer has, or for a community universe one of its
// package's own.
func (e Entry) RuleSet(name string, tie model.TiePolicy) (ruleset.Set, error) {
	if s, ok := AmendmentSet(name); ok {
		return s, nil
	}
	if m, ok := mutants.Lookup(name); ok {
		if !m.Change.Touches(e.Layer) {
			return ruleset.Set{}, fmt.Errorf("-rules %s: a mutant of another layer, it changes nothing in universe %s", name, e.Name)
		}
		return m.SetUnder(tie), nil
	}
	if s, ok := ruleset.Named(name); ok {
		return s.WithTie(tie), nil
	}
	if e.Layer == ruleset.LayerCommunity {
		if mk, ok := community.RuleSets()[name]; ok {
			s := ruleset.Spec()
			s.Name, s.Community = name, mk()
			return s, nil
		}
	}
	return ruleset.Set{}, fmt.Errorf("-rules %s: not a rule set of universe %s (spec, proposed, an amendment, a mutant of its layer%s)", name, e.Name,
		map[bool]string{true: ", rekey-heal"}[e.Layer == ruleset.LayerCommunity])
}

// EntryOnly is the entry of a universe only the catalogue runs, if name
// is one: not the walk or a variant of it, and not one of the override
// catalogue's universes (the explorer runs those itself).
func (c *Catalog) EntryOnly(name string) (Entry, bool) {
	e, err := c.Lookup(name)
	if err != nil || e.Layer == ruleset.LayerHistory {
		return Entry{}, false
	}
	if _, err := c.ex.Universe(name); err == nil {
		return Entry{}, false
	}
	return e, true
}
