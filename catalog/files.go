package catalog

import (
	"fmt"

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
