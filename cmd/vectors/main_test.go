package main

import (
	"testing"
)

// TestRuleSet: -rules gives a walk mutant its history rules and a core
// mutant its core rules, each with the other side production, and refuses
// a name it does not know.
func TestRuleSet(t *testing.T) {
	h, err := ruleSet("H7")
	if err != nil || h.History.Name != "H7" || h.Model == nil {
		t.Fatalf("H7: %v %+v", err, h)
	}
	l, err := ruleSet("L9")
	if err != nil || l.History.Name != "spec" || l.Model.Name == "spec" {
		t.Fatalf("L9: %v %+v", err, l)
	}
	if _, err := ruleSet("L99"); err == nil {
		t.Fatal("L99 accepted")
	}
	if code := printCoverage(t.TempDir()); code != 2 {
		t.Fatalf("coverage of an empty directory: exit %d, want 2", code)
	}
}
