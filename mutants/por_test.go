package mutants

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
)

// porCase is one rule set to explore with and without the reduction: the
// universe (a one-device variant for such a mutant) and the run's rules.
type porCase struct {
	name     string
	universe string
	rules    *model.Rules
}

// TestPORFindsTheSameViolations runs every mutant of the catalogue and
// every amendment through the network universes with and without
// partial-order reduction and requires the same states per depth, the same
// violated invariants and, for each, a smallest witness of the same length.
// `make test` runs network at depth 3 under clear-wins; POR_FULL=1 (make
// por-check) runs both network universes at depth 5 under both tie
// policies.
func TestPORFindsTheSameViolations(t *testing.T) {
	cat := exhaustive.NewCatalog()
	Register(cat)
	universes, depth, ties, minCaught := []string{"network"}, 3, []model.TiePolicy{model.ClearWins}, 8
	if os.Getenv("POR_FULL") != "" {
		universes, depth, ties, minCaught = []string{"network", "network-whole"}, 5, []model.TiePolicy{model.ClearWins, model.SetWins}, 30
	}
	var cases []porCase
	for _, base := range universes {
		for _, tie := range ties {
			for _, m := range All() {
				if m.Change.Model == nil {
					continue // a mutant of the walk or the community: their universes only
				}
				u := base
				if m.OneDevice {
					u = VariantName(base, m.ID)
				}
				cases = append(cases, porCase{fmt.Sprintf("%s/%v/%s", base, tie, m.ID), u, m.RunRules(tie)})
			}
			for _, a := range amendments.All() {
				for _, at := range a.Ties([]model.TiePolicy{tie}) {
					cases = append(cases, porCase{fmt.Sprintf("%s/%v/%s", base, at, a.Name), base, a.Rules(at)})
				}
			}
		}
	}
	caught := 0
	for _, tc := range cases {
		u, err := cat.Universe(tc.universe)
		if err != nil {
			t.Fatal(err)
		}
		var res [2]*exhaustive.Result
		for i, por := range []bool{false, true} {
			res[i], err = exhaustive.Explore(exhaustive.Config{Universe: u, Depth: depth, Rules: tc.rules, POR: por, AllWitnesses: true})
			if err != nil {
				t.Fatal(err)
			}
		}
		full, red := res[0], res[1]
		if !slices.Equal(full.PerDepth, red.PerDepth) || full.Status != red.Status {
			t.Errorf("%s: %v %v full, %v %v reduced", tc.name, full.PerDepth, full.Status, red.PerDepth, red.Status)
			continue
		}
		if got, want := witnessLengths(red), witnessLengths(full); !slices.Equal(got, want) {
			t.Errorf("%s: violated (invariant:witness length) %v reduced, %v full", tc.name, got, want)
		}
		for i, inv := range full.Invariants {
			if (inv.Violations > 0) != (red.Invariants[i].Violations > 0) {
				t.Errorf("%s: %s violated %d times full, %d reduced", tc.name, inv.Name, inv.Violations, red.Invariants[i].Violations)
			}
		}
		if len(full.Witnesses) > 0 {
			caught++
		}
	}
	// Not vacuous: the comparison covers rule sets that fail on a trace
	// (every run this shallow fails N0, non-vacuity, which has none).
	if caught < minCaught {
		t.Fatalf("only %d rule sets of %d violate an invariant on a trace at depth %d", caught, len(cases), depth)
	}
	t.Logf("%d rule sets, %d with a witness", len(cases), caught)
}

func witnessLengths(r *exhaustive.Result) []string {
	var out []string
	for _, w := range r.Witnesses {
		out = append(out, fmt.Sprintf("%s:%d", w.Invariant, len(w.Actions)))
	}
	return out
}
