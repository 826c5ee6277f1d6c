package catalog

import (
	"fmt"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
)

// CoreRules is the override rule set name names for a check that runs
// only the core rules (the liveness and agreement checks, an
// observation): any rule set of the override catalogue but a mutant of
// another layer, which would change nothing there and be reported as if
// it had.
func (c *Catalog) CoreRules(name string) (*model.Rules, error) {
	if m, ok := mutants.Lookup(name); ok && m.Change.Model == nil {
		return nil, fmt.Errorf("-rules %s: a mutant of another layer than the core", name)
	}
	rules, err := c.ex.Rules(name)
	if err != nil {
		return nil, fmt.Errorf("-rules: %v", err)
	}
	return rules, nil
}

// ReplayFile reads the witness file at path (bounded and checked as
// witnessfile reads every file) and replays it under the rules it names;
// each error names the file.
func (c *Catalog) ReplayFile(path string) (*witnessfile.Witness, *witnessfile.Replayed, error) {
	data, err := witnessfile.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	w, err := witnessfile.Parse(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	r, err := c.Replay(w)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	return w, r, nil
}

// OverrideInputs resolves the universe of the override catalogue, the
// tie policies and the rule set an exploration or a simulation names, or
// says which is bad. A history mutant is refused: its change is to the
// walk's rules, so on an override universe it would run the production
// rules and report their verdict as the mutant's. Its signature is
// exhaustive.Resolver's, so a simulation part's run line resolves as the
// command line did.
func (c *Catalog) OverrideInputs(universe, tie, rules string) (exhaustive.Universe, []model.TiePolicy, *model.Rules, error) {
	u, err := c.ex.Universe(universe)
	if err != nil {
		return exhaustive.Universe{}, nil, nil, err
	}
	tl, err := model.ParseTies(tie)
	if err != nil {
		return exhaustive.Universe{}, nil, nil, err
	}
	if m, ok := mutants.Lookup(rules); ok && m.Change.History != nil {
		return exhaustive.Universe{}, nil, nil, fmt.Errorf("-rules %s: a history mutant, it changes only the paged walk (use -universe %s)", rules, history.UniverseName)
	}
	r, err := c.ex.Rules(rules)
	if err != nil {
		return exhaustive.Universe{}, nil, nil, fmt.Errorf("-rules: %v", err)
	}
	return u, tl, r, nil
}
