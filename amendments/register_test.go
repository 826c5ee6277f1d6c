package amendments

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/mutants"
)

// An amendment whose name another amendment or a rule set already has is
// refused with an error naming it, and none is registered.
func TestRegisterRefusesATakenName(t *testing.T) {
	b := BMaxFrontier()
	named := func(name string) Amendment { a := SetWinsEverywhere(); a.Name = name; return a }
	for _, tc := range []struct {
		name string
		as   []Amendment
		want string
	}{
		{"duplicate", []Amendment{b, named(b.Name)}, `the name "b-max-frontier" of amendment`},
		{"a mutant's id", []Amendment{named("M6")}, `the name "M6" of amendment`},
		{"spec", []Amendment{named("spec")}, `the name "spec" of amendment`},
		{"empty", []Amendment{named("")}, "has no name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat := exhaustive.NewCatalog()
			mutants.Register(cat)
			before := len(cat.RulesNames())
			err := register(cat, tc.as)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
			if after := len(cat.RulesNames()); after != before {
				t.Errorf("%d rule sets registered despite the error", after-before)
			}
		})
	}
	cat := exhaustive.NewCatalog()
	mutants.Register(cat)
	if err := Register(cat); err != nil {
		t.Fatalf("the project's amendments: %v", err)
	}
}
