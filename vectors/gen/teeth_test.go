package gen

import (
	"fmt"
	"slices"
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
)

// Why a catalogue mutant passes every vector.
const whyCommunity = "a community sync rule (community.Rules): epochs, the live REQ, the scheduler and the pump are outside these kinds"

// uncatchable lists every catalogue mutant no vector can tell from the
// production rules, with why. The teeth test requires it to be exactly the
// set of mutants that pass every vector, so a new mutant fails the test
// until it is caught or classified here. The load vectors (scripted
// relays) catch every L mutant and the history vectors every H mutant,
// besides the M mutants the other kinds catch; only the community
// mutants are left, their mechanisms outside every kind.
func uncatchable() map[string]string {
	out := map[string]string{}
	for _, m := range mutants.Community() {
		out[m.ID] = whyCommunity
	}
	return out
}

// TestMutantTeeth: every catalogue mutant whose changed rule the vectors
// cover fails at least one vector; the rest are exactly uncatchable().
func TestMutantTeeth(t *testing.T) {
	files := committed(t)
	why := uncatchable()
	var table []string
	all := mutants.All()
	// Each mutant runs every vector: the quick gate takes one in eight,
	// spread over the catalogue's kinds.
	if step := shortrun.Size(t, 1, 8); step > 1 {
		var some []mutants.Mutant
		for i := 0; i < len(all); i += step {
			some = append(some, all[i])
		}
		all = some
	}
	for _, m := range all {
		rules := RuleSet{Model: m.RulesUnder(model.ClearWins), History: m.HistoryRules()}
		caught := map[string]int{}
		first := ""
		for _, f := range files {
			fails, err := CheckWith(rules, f)
			if err != nil {
				t.Fatalf("%s: %v", m.ID, err)
			}
			if len(fails) > 0 {
				caught[f.Kind] = len(fails)
				if first == "" {
					first = fails[0].ID
				}
			}
		}
		reason, listed := why[m.ID]
		switch {
		case len(caught) == 0 && !listed:
			t.Errorf("%s (%s) passes every vector and is not classified as uncatchable", m.ID, m.Rule)
		case len(caught) > 0 && listed:
			t.Errorf("%s is classified uncatchable (%s) but fails %v", m.ID, reason, caught)
		}
		if len(caught) > 0 {
			table = append(table, fmt.Sprintf("%-4s caught %v, first %s", m.ID, caught, first))
		} else {
			table = append(table, fmt.Sprintf("%-4s passes: %s", m.ID, reason))
		}
	}
	for id := range why {
		if _, ok := mutants.Lookup(id); !ok {
			t.Errorf("uncatchable lists %s, which is not in the catalogue", id)
		}
	}
	slices.Sort(table)
	for _, row := range table {
		t.Log(row)
	}
}
