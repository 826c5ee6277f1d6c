package exhaustive

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// The liveness line names the universe, tie, rules and depth, the status
// with the bound that stopped it, and every count of the product graph;
// a violation without a lasso has no witness file to write.
func TestLivenessLineAndWitness(t *testing.T) {
	res := &LivenessResult{Universe: "network-pair", Rules: "spec", Depth: 3, Status: StatusUnknown, BoundHit: "product graph over 9 states",
		Roots: 1, States: 2, Edges: 3, Publications: 4, Premise: 5,
		Cycles: search.CycleCounts{Cyclic: 6, Unfair: 7, UnfairAccepting: 8, Fair: 9, Violations: 10}}
	line := res.Line(model.SetWins)
	for _, want := range []string{"liveness network-pair tie set rules spec depth 3: ", " (bound: product graph over 9 states); ",
		"roots 1, states 2, edges 3, triggered publications 4, ", "enabled 5, cyclic components 6 (unfair 7, 8 of them publishing; fair 9, 10 of them publishing)"} {
		if !strings.Contains(line, want) {
			t.Errorf("line %q lacks %q", line, want)
		}
	}
	if p, err := res.WriteWitness(t.TempDir(), model.SetWins); err == nil || p != "" {
		t.Errorf("no lasso: %q %v", p, err)
	}
}

// The agreement line carries the bound and every count the same way.
func TestAgreementLine(t *testing.T) {
	res := &LivenessResult{Property: InvOverrideReaches, Universe: "network-pair", Rules: "proposed", Depth: 2, Status: StatusOK,
		States: 1, Edges: 2, UserEdges: 3, Pending: 4, Cycles: search.CycleCounts{Stuck: 5, StuckViolations: 6, Cyclic: 7, Fair: 8, Violations: 9}}
	want := "agreement network-pair tie clear rules proposed, at most 2 user actions: " + StatusOK.String() +
		"; states 1, system steps 2, user steps 3, states apart 4, settled 5 (apart 6), cyclic components 7 (fair 8, 9 of them apart)"
	if got := res.Line(model.ClearWins); got != want {
		t.Errorf("line\n %s\nwant\n %s", got, want)
	}
	if p, err := res.WriteWitness(t.TempDir(), model.ClearWins); err == nil || p != "" {
		t.Errorf("no witness: %q %v", p, err)
	}
}
