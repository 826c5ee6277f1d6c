package catalog

import (
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/ruleset"
)

// A community universe takes its package's own rule set and a mutant of
// its layer, refuses a mutant of another layer and an unknown name; only
// the universes the override catalogue lacks are the catalogue's alone.
func TestEntryRuleSetAndEntryOnly(t *testing.T) {
	c := Standard()
	e, ok := c.EntryOnly("epochs")
	if !ok || e.Layer != ruleset.LayerCommunity {
		t.Fatalf("epochs: entry %+v, only the catalogue's %t", e.Name, ok)
	}
	for _, name := range []string{"reference", "walk", "no-such-universe"} {
		if _, ok := c.EntryOnly(name); ok {
			t.Errorf("%s: the catalogue's alone", name)
		}
	}
	if s, err := e.RuleSet("rekey-heal", model.ClearWins); err != nil || s.Name != "rekey-heal" || s.Community == nil {
		t.Errorf("rekey-heal: %+v %v", s.Name, err)
	}
	if s, err := e.RuleSet("proposed", model.ClearWins); err != nil || s.Name != "proposed" {
		t.Errorf("proposed: %+v %v", s.Name, err)
	}
	if _, err := e.RuleSet("M1", model.ClearWins); err == nil || !strings.Contains(err.Error(), "another layer") {
		t.Errorf("an override mutant on a community universe: %v", err)
	}
	if _, err := e.RuleSet("nonsense", model.ClearWins); err == nil || !strings.Contains(err.Error(), "rekey-heal") {
		t.Errorf("unknown name: %v", err)
	}
}

// The walk's rule set names start with its own three and hold each
// history mutant (each one WalkRules resolves); findings are formatted
// sorted, once as "time", else "times".
func TestWalkRuleNamesAndFindings(t *testing.T) {
	names := WalkRuleNames()
	if !slices.Equal(names[:3], []string{"spec", "healing", "proposed"}) || !slices.Contains(names, "H1") {
		t.Errorf("names %v", names)
	}
	for _, n := range names {
		if _, ok := WalkRules(n); !ok {
			t.Errorf("%s: listed, not resolved", n)
		}
	}
	s := &Summary{Violations: map[string]int64{"b": 1, "a": 1234}, Documented: map[string]int64{"c": 2}}
	doc, broken := s.Findings()
	if !slices.Equal(doc, []string{"c (2 times)"}) || !slices.Equal(broken, []string{"a (1,234 times)", "b (1 time)"}) {
		t.Errorf("documented %v, broken %v", doc, broken)
	}
	if ids := s.ViolatedIDs(); !slices.Equal(ids, []string{"a", "b"}) {
		t.Errorf("ids %v", ids)
	}
}
