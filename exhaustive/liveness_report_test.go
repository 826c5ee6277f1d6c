package exhaustive

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// The liveness line names the universe, tie, rules and depth, the status
// with the bound that stopped it, and every count of the product graph;
// a violation without a lasso has no witness file to write.
func TestLivenessLineAndWitness(t *testing.T) {
	res := &LivenessResult{Universe: "network-pair", Rules: "spec", Depth: 3, Status: StatusUnknown, BoundHit: "product graph over 9 states",
		Roots: 1, States: 2, Edges: 3, Publications: 4, Premise: 5, Components: 6, Unfair: 7, UnfairWithPublication: 8, Fair: 9, WithPublication: 10}
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
