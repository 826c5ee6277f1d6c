package catalog

import (
	"strings"

	"github.com/nip-rs/harness/candidate"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/witnessfile"
)

// candidateA is candidate A's entry: the reference universe with upgraded
// devices speaking the lexicographic operation register (package
// candidate), so the same generic checks judge the encoding the spec did
// not adopt.
const candidateA = "candidate-a"

// overrideEntries are the override layer's universes, by name, then
// candidate A's.
func (cat *Catalog) overrideEntries() []Entry {
	c := cat.ex
	var out []Entry
	for _, name := range c.UniverseNames() {
		u, _ := c.Universe(name)
		out = append(out, Entry{Name: name, Doc: u.Doc, Layer: ruleset.LayerModel, Depth: u.Depth, Kind: witnessfile.KindExplore,
			explore:  func(rules ruleset.Set, b Bound) (*Summary, error) { return exploreOverride(u, rules, b) },
			simulate: func(rules ruleset.Set, s SimBound) (*Summary, error) { return simulateOverride(u, rules, s) },
			replay:   cat.replayOverride,
		})
	}
	ref := exhaustive.Reference()
	out = append(out, Entry{Name: candidateA, Doc: "candidate A's register encoding over " + ref.Name + ": " + candidate.EncodingA{}.Doc(),
		Layer: ruleset.LayerModel, Depth: ref.Depth, Kind: witnessfile.KindExplore,
		explore: func(rules ruleset.Set, b Bound) (*Summary, error) {
			r, err := candidate.Explore(candidate.Config{Universe: ref, Encoding: candidate.EncodingA{}, Rules: rules.Model,
				Depth: b.Depth, Workers: b.Workers, MaxStates: b.MaxStates})
			if err != nil {
				return nil, err
			}
			return overrideSummary(r.Status, r.BoundHit, r.Distinct, r.Invariants, r.Witness), nil
		},
		replay: func(rules ruleset.Set, w *witnessfile.Witness) (*witnessfile.Replayed, error) {
			c, w := cat.catalogueFor(rules, w)
			return candidate.Replay(c, w)
		},
	})
	return out
}

func exploreOverride(u exhaustive.Universe, rules ruleset.Set, b Bound) (*Summary, error) {
	cfg := exhaustive.Config{Universe: u, Depth: b.Depth, Rules: rules.Model, Workers: b.Workers, MaxStates: b.MaxStates, Progress: b.Progress}
	r, err := exhaustive.Explore(cfg)
	if err != nil {
		return nil, err
	}
	return overrideSummary(r.Status, r.BoundHit, r.Distinct, r.Invariants, r.Witness), nil
}

func simulateOverride(u exhaustive.Universe, rules ruleset.Set, s SimBound) (*Summary, error) {
	r, err := exhaustive.Simulate(exhaustive.SimConfig{Universe: u, Rules: rules.Model, Walks: s.Walks, Steps: s.Steps, Seed: s.Seed, Workers: s.Workers})
	if err != nil {
		return nil, err
	}
	// A simulation visits a sample: a clean one is unknown, not ok.
	st := exhaustive.StatusUnknown
	if r.Witness != nil {
		st = exhaustive.StatusViolation
	}
	return overrideSummary(st, "", int(r.Checked), r.Invariants, r.Witness), nil
}

func overrideSummary(st exhaustive.Status, bound string, distinct int, invs []exhaustive.InvariantCount, w *witnessfile.Witness) *Summary {
	s := &Summary{Status: st, BoundHit: bound, Distinct: distinct, Violations: map[string]int64{}}
	for _, inv := range invs {
		if inv.Violations > 0 {
			s.Violations[inv.Name] = inv.Violations
		}
	}
	if w != nil {
		s.Invariant, s.JSON, s.Witness, s.Text = w.Invariant, w.JSON(), w, w.Text
	}
	return s
}

func (cat *Catalog) replayOverride(rules ruleset.Set, w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	if w.Encoding != "" {
		return nil, witnessfile.Bad("a witness of encoding %s replays through the %s entry", w.Encoding, candidateA)
	}
	c, w := cat.catalogueFor(rules, w)
	return exhaustive.Replay(c, w)
}

// catalogueFor is an override catalogue holding rules under its name,
// and a copy of w naming it: the override replays resolve a witness's
// universe and rule set by name. A name the catalogue already has is
// replayed as the catalogue builds it (an amendment decides its own tie);
// another gets a catalogue of its own, the universes the same.
func (cat *Catalog) catalogueFor(rules ruleset.Set, w *witnessfile.Witness) (*exhaustive.Catalog, *witnessfile.Witness) {
	cp := *w
	cp.Rules = rules.Name
	if _, err := cat.ex.Rules(rules.Name); err == nil {
		return cat.ex, &cp
	}
	c := exhaustive.NewCatalog()
	for _, name := range cat.ex.UniverseNames() {
		if _, err := c.Universe(name); err != nil {
			name := name
			c.AddUniverse(name, func() exhaustive.Universe { u, _ := cat.ex.Universe(name); return u })
		}
	}
	m := rules.Model
	c.AddRules(rules.Name, func() *model.Rules { return m.Clone() })
	return c, &cp
}

// witnessUniverse is the entry name a witness's universe maps to: an
// explorer witness with an encoding is candidate A's.
func witnessUniverse(w *witnessfile.Witness) string {
	if w.Kind == witnessfile.KindExplore && strings.EqualFold(w.Encoding, candidate.EncodingA{}.Name()) {
		return candidateA
	}
	return w.Universe
}
