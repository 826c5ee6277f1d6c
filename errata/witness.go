package errata

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/props"
	"github.com/nip-rs/harness/witnessfile"
)

// LoadCases and LoadSeed bound every load search of the errata: the
// gate's own (mutants.DefaultLoadCases, mutants.DefaultSeed).
const (
	LoadCases = mutants.DefaultLoadCases
	LoadSeed  = mutants.DefaultSeed
)

// WitnessPath is where a finding's witness is stored, from the repository
// root.
func WitnessPath(f Finding) string { return filepath.Join("errata", "testdata", f.ID+".json") }

// TextRules and FixRules name the rule sets a finding's witness is
// replayed under with explore -replay -rules: the text, and the text with
// the fix (for a relay finding, the client's best: the fix is the relay's).
func (f Finding) TextRules() string {
	if f.Layer == LayerRelay {
		return model.ProposedName
	}
	return "spec"
}

func (f Finding) FixRules() string {
	switch f.Layer {
	case LayerCommunity:
		return "rekey-heal"
	case LayerHistory:
		if f.ID == "bridge-pending-region" {
			return "healing"
		}
	}
	return model.ProposedName
}

// catalog names the rule sets and universes a model witness replays in.
func catalog() *exhaustive.Catalog {
	c := exhaustive.NewCatalog()
	mutants.Register(c)
	return c
}

// Generate searches for the finding's shortest witness under its text
// rule set and returns the file's bytes. The search is the one the
// harness's checks run (the explorer, a load search, the walk's or a
// community universe's breadth-first search), so the same build always
// finds the same witness.
func Generate(f Finding) ([]byte, error) {
	switch f.Layer {
	case LayerRelax, LayerClarify:
		return nil, fmt.Errorf("%s: a %s has no witness", f.ID, f.Layer)
	case LayerModel:
		cat := catalog()
		u, err := cat.Universe(f.Where)
		if err != nil {
			return nil, err
		}
		res, err := exhaustive.Explore(exhaustive.Config{Universe: u, Depth: u.Depth, Rules: model.Spec(), AllWitnesses: true})
		if err != nil {
			return nil, err
		}
		for _, w := range res.Witnesses {
			if w.Invariant == f.Invariant {
				return w.JSON(), nil
			}
		}
		return nil, fmt.Errorf("%s: no %s witness under spec in %s (status %s)", f.ID, f.Invariant, f.Where, res.Status)
	case LayerLoad, LayerRelay:
		rules := model.Spec()
		if f.Layer == LayerRelay {
			rules = model.Proposed()
		}
		w, err := props.Search(props.SearchConfig{Check: props.CheckSoundness, Rules: rules, Profile: f.Where, Cases: LoadCases, Seed: LoadSeed})
		if err != nil {
			return nil, err
		}
		if w == nil {
			return nil, fmt.Errorf("%s: no false complete under %s over %s in %d cases", f.ID, rules.Name, f.Where, LoadCases)
		}
		data, err := json.MarshalIndent(w, "", "  ")
		return append(data, '\n'), err
	case LayerHistory:
		u, ok := historyVariant(f.Where)
		if !ok {
			return nil, fmt.Errorf("%s: no walk variant %q", f.ID, f.Where)
		}
		// Where a mutant drops this one fix from the proposal, the
		// witness is the smallest that needs it: found with the fix left
		// out, then required to fail under the text too (the text's own
		// smallest witness in a variant may be another hole's).
		rules := history.Spec()
		if f.Without != "" {
			m, ok := mutants.Lookup(f.Without)
			if !ok || m.Change.History == nil {
				return nil, fmt.Errorf("%s: no history mutant %q drops the fix", f.ID, f.Without)
			}
			rules = m.HistoryRules()
		}
		out, err := history.Explore(u, rules, history.ReportAll, 0, true)
		if err != nil {
			return nil, err
		}
		if out.Witness == nil || out.Witness.Invariant != f.Invariant {
			return nil, fmt.Errorf("%s: the walk's smallest witness under %s in %s is %v, not %s", f.ID, rules.Name, f.Where, out.Witness, f.Invariant)
		}
		return out.Witness.JSON(), nil
	case LayerCommunity:
		// Not the catalogue's entry: its runs leave out the rule set's
		// known findings (community.Known), and under the text's rules
		// those are exactly the findings recorded here. The universe is
		// the one the entry explores (the catalogue builds its community
		// entries from community.Universes).
		u, ok := community.UniverseNamed(f.Where)
		if !ok {
			return nil, fmt.Errorf("%s: no community universe %q", f.ID, f.Where)
		}
		res := community.Explore(u, community.Spec(), func(inv string) bool { return inv != f.Invariant }, true)
		if res.Witness == nil {
			return nil, fmt.Errorf("%s: no %s witness under spec in %s", f.ID, f.Invariant, f.Where)
		}
		return res.Witness.JSON(), nil
	}
	return nil, fmt.Errorf("%s: unknown layer %q", f.ID, f.Layer)
}

// historyVariant is the walk variant at the depth the gate explores it.
func historyVariant(name string) (history.UniverseConfig, bool) {
	for _, v := range history.GateVariants() {
		if v.Name == name {
			return v.U, true
		}
	}
	return history.UniverseConfig{}, false
}

// Steps is how many actions or steps the stored witness takes.
func Steps(f Finding, data []byte) (int, error) {
	var w struct {
		Actions []json.RawMessage `json:"actions"`
		Steps   []json.RawMessage `json:"steps"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return 0, fmt.Errorf("%s: %w", f.ID, err)
	}
	return len(w.Actions) + len(w.Steps), nil
}

// Reproduces replays the stored witness under a rule set of the finding's
// layer ("text", "fix" or "without": the fix with this finding's own
// proposal left out) and reports whether its invariant fails again.
func Reproduces(f Finding, data []byte, which string) (bool, error) {
	switch f.Layer {
	case LayerModel:
		w, err := witnessfile.Parse(data)
		if err != nil {
			return false, err
		}
		cat := catalog()
		switch which {
		case "text":
			w.Rules = f.TextRules()
		case "fix":
			w.Rules = f.FixRules()
		default:
			r, ok := model.Without(f.ID)
			if !ok {
				return false, fmt.Errorf("%s: no proposal to leave out", f.ID)
			}
			w.Rules = r.Name
			cat.AddRules(r.Name, func() *model.Rules { r, _ := model.Without(f.ID); return r })
		}
		rep, err := exhaustive.Replay(cat, w)
		if err != nil {
			return false, err
		}
		return rep.Reproduced, nil
	case LayerLoad, LayerRelay:
		var w props.Witness
		if err := json.Unmarshal(data, &w); err != nil {
			return false, err
		}
		rules := model.Spec()
		switch {
		case which == "fix" || (which == "text" && f.Layer == LayerRelay):
			rules = model.Proposed()
		case which == "without":
			r, ok := model.Without(f.ID)
			if !ok {
				return false, fmt.Errorf("%s: no proposal to leave out", f.ID)
			}
			rules = r
		}
		v, _ := props.Replay(w, rules)
		return v != nil && v.Check == w.Check, nil
	case LayerHistory:
		w, err := witnessfile.Parse(data)
		if err != nil {
			return false, err
		}
		rules := history.Spec()
		switch which {
		case "fix":
			rules = history.RuleSets()[f.FixRules()]()
		case "without":
			m, ok := mutants.Lookup(f.Without)
			if !ok || m.Change.History == nil {
				return false, fmt.Errorf("%s: no history mutant %q drops the fix", f.ID, f.Without)
			}
			rules = m.HistoryRules()
		}
		rep, err := history.ReplayWith(w, rules)
		if err != nil {
			return false, err
		}
		return rep.Reproduced, nil
	case LayerCommunity:
		w, err := community.Parse(data)
		if err != nil {
			return false, err
		}
		rules := community.Spec()
		if which == "fix" {
			rules = community.Heal()
		}
		out, err := community.Replay(w, rules)
		if err != nil {
			return false, err
		}
		return out.Reproduced, nil
	}
	return false, fmt.Errorf("%s: unknown layer %q", f.ID, f.Layer)
}
