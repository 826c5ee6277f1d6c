package gen

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// TestVectorsTellUniformSetWins (Tie Policy: clear-wins on every
// installation). Every installation deciding ties as set is a consistent
// population: the merge laws and the explorers' safety invariants hold
// under it, and the gate runs it as its comparison policy, so no safety
// check can tell it from clear-wins. The vectors state clear-wins outcomes
// and do: such a rule set fails the register vectors, the script of a tie
// received from a peer among them, where the production rules fail none.
func TestVectorsTellUniformSetWins(t *testing.T) {
	set := model.Proposed().WithTie(model.SetWins)
	var failed []string
	for _, f := range committed(t) {
		fails, err := Check(set, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range fails {
			failed = append(failed, x.ID)
		}
		if clean, err := Check(model.Proposed(), f); err != nil || len(clean) > 0 {
			t.Fatalf("%s: the production rules fail %d vectors (%v)", f.Kind, len(clean), err)
		}
	}
	tieDead := false
	for _, id := range failed {
		tieDead = tieDead || strings.HasSuffix(id, "tie-is-dead")
	}
	if !tieDead {
		t.Fatalf("set-wins everywhere fails %v, not the tie-is-dead script", failed)
	}
	t.Logf("set-wins everywhere fails %d vectors", len(failed))
}
