package mutants

import (
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
)

// TestReadingsRegistered: every reading is a catalogued rule set under its
// name, it is no mutant, and the by-value reading reads 1.0 as 1 where the
// production rules refuse it.
func TestReadingsRegistered(t *testing.T) {
	cat := exhaustive.NewCatalog()
	Register(cat)
	for _, r := range Readings() {
		rules, err := cat.Rules(r.Name)
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		if rules.Name != r.Name {
			t.Errorf("%s: rule set named %q", r.Name, rules.Name)
		}
		if _, isMutant := Lookup(r.Name); isMutant {
			t.Errorf("%s is also a mutant id", r.Name)
		}
	}
	rules, err := cat.Rules(model.ByValueIntegersName)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := rules.SanitizeValue("1.0"); !ok || v != 1 {
		t.Errorf("by-value reading of 1.0: %d, %t", v, ok)
	}
	if _, ok := model.Proposed().SanitizeValue("1.0"); ok {
		t.Error("the production rules accept 1.0")
	}
	if !slices.IsSortedFunc(Readings(), func(a, b Reading) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("readings not in name order")
	}
	distinct, err := cat.Rules(model.DistinctKeyLimitName)
	if err != nil {
		t.Fatal(err)
	}
	if distinct.CountEntries(10001, 3) > model.MaxEntries || model.Proposed().CountEntries(10001, 3) <= model.MaxEntries {
		t.Error("the distinct-key reading counts members, or the production rules count distinct keys")
	}
	discard, err := cat.Rules(model.UTF8DiscardsEventName)
	if err != nil {
		t.Fatal(err)
	}
	if !discard.BadKeyDiscards("a\xff") || model.Proposed().BadKeyDiscards("a\xff") {
		t.Error("the UTF-8 reading keeps the event, or the production rules discard it")
	}
}

// The codec readings are other readings of Content Validation, not
// mutants: under each, both tie policies, the reference universe to its
// depth bound keeps every invariant (NOTE.md, "Integer literals"). The
// whole suite under a reading is `make readings`.
func TestCodecReadingsKeepTheReferenceUniverse(t *testing.T) {
	for _, r := range Readings() {
		if r.Name == model.FenceLapseFailsName { // a load reading: the reference universe runs no load
			continue
		}
		for _, tie := range []model.TiePolicy{model.ClearWins, model.SetWins} {
			u := exhaustive.Reference()
			res, err := exhaustive.Explore(exhaustive.Config{Universe: u, Depth: u.Depth, Rules: r.Rules().WithTie(tie), Workers: 2})
			if err != nil {
				t.Fatalf("%s %s: %v", r.Name, tie, err)
			}
			if res.Status != exhaustive.StatusOK || res.Witness != nil || res.Distinct == 0 {
				t.Errorf("%s under %s: status %v, %d states, witness %v", r.Name, tie, res.Status, res.Distinct, res.Witness != nil)
			}
		}
	}
}
