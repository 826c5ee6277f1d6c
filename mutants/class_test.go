package mutants

import (
	"testing"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history/community"
)

// Every check the catalogues hold has a class, the same by value and by
// name, and every invariant of every universe's table has one: a check
// added without a class fails here, not silently as safety.
func TestEveryCheckHasAClass(t *testing.T) {
	cat := exhaustive.NewCatalog()
	Register(cat)
	if err := amendments.Register(cat); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, c := range SuiteChecks(cat) {
		kinds[c.Kind]++
		got := Class(c)
		if got == "" {
			t.Errorf("check %s (kind %s) has no class", c.Name, c.Kind)
		}
		if byName := ClassOfName(c.Name); byName != got {
			t.Errorf("check %s: class %q by value, %q by name", c.Name, got, byName)
		}
	}
	for _, k := range []string{KindExplore, KindDirected, KindLoad, KindSimulate, KindHistory, KindCommunity} {
		if kinds[k] == 0 {
			t.Errorf("the suite holds no check of kind %s: the classifier's cases are not all exercised", k)
		}
	}
	for _, d := range directed.Checks() {
		want := ClassSafety
		if d.SpecText {
			want = ClassSpecText
		}
		if got := ClassOfName(KindDirected + ":" + d.Key); got != want {
			t.Errorf("directed %s: class %q, want %q", d.Key, got, want)
		}
	}
	coverage := 0
	for _, n := range cat.UniverseNames() {
		u, err := cat.Universe(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, inv := range exhaustive.InvariantTable(u) {
			switch InvariantClass(inv.ID) {
			case "":
				t.Errorf("universe %s: invariant %s has no class", n, inv.ID)
			case ClassCoverage:
				coverage++
			}
		}
	}
	if coverage == 0 {
		t.Error("no universe's table holds a coverage invariant: non-vacuity is classed as something else")
	}
}

// The classes of named checks, and what has none: a table the classifier
// must reproduce, including the kinds and names it must refuse.
func TestClassTable(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{KindExplore + ":reference", ClassSafety},
		{KindExplore + ":network", ClassSafety},
		{KindSimulate + ":network", ClassSafety},
		{CheckHistory, ClassSafety},
		{KindLoad + ":soundness", ClassSafety},
		{KindLiveness + ":network-pair", ClassLiveness},
		{CheckAgreement("network-pair"), ClassLiveness},
		{CheckWalkLiveness, ClassLiveness},
		{CheckCommunityLiveness(community.PropRekey), ClassLiveness},
		{"nonsense:reference", ""},
		{"no-colon", ""},
		{KindDirected + ":no-such-check", ""},
	} {
		if got := ClassOfName(c.name); got != c.want {
			t.Errorf("ClassOfName(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	spec := 0
	for _, d := range directed.Checks() {
		if d.SpecText {
			spec++
			if !IsConformanceName(KindDirected + ":" + d.Key) {
				t.Errorf("directed %s asserts the text but is not conformance", d.Key)
			}
		}
	}
	if spec == 0 {
		t.Error("no directed check asserts spec-text conformance")
	}
	for _, c := range []struct{ id, want string }{
		{exhaustive.InvNetVacuous, ClassCoverage},
		{exhaustive.InvNetOracle, ClassSafety},
		{exhaustive.InvConvergence, ClassSafety},
		{"I9-no-such-invariant", ""},
	} {
		if got := InvariantClass(c.id); got != c.want {
			t.Errorf("InvariantClass(%q) = %q, want %q", c.id, got, c.want)
		}
	}
	if Class(Check{Kind: KindDirected}) != "" {
		t.Error("a directed check with no check behind it has a class")
	}
}
