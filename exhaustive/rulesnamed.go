package exhaustive

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/model"
)

// RuleSet resolves a rule set by the name a difference search and its
// witness use: a catalogue name, or proposed-without-NAME, the production
// rules with one proposal of model.Proposals left out (which no catalogue
// lists: there is one such set per proposal, and only a difference search
// asks for them).
func (c *Catalog) RuleSet(name string) (*model.Rules, error) {
	r, err := c.Rules(name)
	if err == nil {
		return r, nil
	}
	if p, ok := strings.CutPrefix(name, model.ProposedName+"-without-"); ok {
		if w, found := model.Without(p); found {
			return w, nil
		}
		var known []string
		for _, q := range model.Proposals() {
			known = append(known, q.Name)
		}
		return nil, fmt.Errorf("unknown rule set %q: no proposal %q (known: %s)", name, p, strings.Join(known, ", "))
	}
	return nil, err
}
