package catalog

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/search"
)

// TestWalkStateLimit: the walk's entry takes the bound's state limit, as
// every other layer's does. Under the text's rules, a limit just below
// what the whole run stores ends it unknown, though all it found is the
// rule set's documented limitation (the states past the limit did not
// run); the whole run is ok with that limitation documented; a limit
// hit early is unknown with no witness.
func TestWalkStateLimit(t *testing.T) {
	e, err := Lookup(history.UniverseName)
	if err != nil {
		t.Fatal(err)
	}
	hr, ok := WalkRules("spec")
	if !ok {
		t.Fatal("no walk rule set spec")
	}
	rules := ruleset.Set{Name: "spec", History: hr}
	// The documented limitation is first met at the walk's full depth, the
	// longest run of this package; the quick gate bounds the same three
	// runs by a depth the walk covers in a fraction of a second, where the
	// state limit must act the same and nothing is documented yet.
	var depth int
	documented := func(s *Summary) bool { return len(s.Documented) > 0 }
	if shortrun.On(t, "the walk to depth 4, before the rule set's documented limitation is met") {
		depth, documented = 4, func(*Summary) bool { return true }
	}
	whole, err := e.Explore(rules, Bound{Depth: depth})
	if err != nil {
		t.Fatal(err)
	}
	if whole.Status != search.StatusOK || whole.BoundHit != "" || !documented(whole) || len(whole.Violations) != 0 {
		t.Fatalf("the whole run: %s %q, documented %v, violations %v", whole.Status, whole.BoundHit, whole.Documented, whole.Violations)
	}
	late, err := e.Explore(rules, Bound{Depth: depth, MaxStates: whole.Distinct - 1})
	if err != nil {
		t.Fatal(err)
	}
	if late.Status != search.StatusUnknown || !strings.Contains(late.BoundHit, "state limit") || !documented(late) || len(late.Violations) != 0 {
		t.Fatalf("limit %d: %s %q, documented %v, violations %v", whole.Distinct-1, late.Status, late.BoundHit, late.Documented, late.Violations)
	}
	early, err := e.Explore(rules, Bound{Depth: depth, MaxStates: 100})
	if err != nil {
		t.Fatal(err)
	}
	if early.Status != search.StatusUnknown || early.BoundHit == "" || early.Witness != nil || early.Distinct >= whole.Distinct {
		t.Fatalf("limit 100: %s %q, witness %v, %d states of %d", early.Status, early.BoundHit, early.Witness != nil, early.Distinct, whole.Distinct)
	}
}
