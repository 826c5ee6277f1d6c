package exhaustive

import (
	"fmt"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
)

// livenessNoteRow is one run of the liveness check as its pinned table
// holds it.
func livenessNoteRow(r *LivenessResult) string {
	return fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %d / %d | %d / %d |", r.Universe, r.Rules, r.Status,
		num.Commas(r.Roots), num.Commas(r.States), num.Commas(r.Edges), num.Commas(r.Publications),
		num.Commas(r.Premise), r.Cycles.Unfair, r.Cycles.UnfairAccepting, r.Cycles.Fair, r.Cycles.Violations)
}

// The pinned liveness table is what the check computes.
func TestLivenessNoteTable(t *testing.T) {
	sec := figfile.For(t, *update)
	for _, u := range LivenessUniverses() {
		for _, rules := range []*model.Rules{model.Spec(), model.Proposed(), noSuppression(), beforeEviction()} {
			res, err := Liveness(LivenessConfig{Universe: u, Rules: rules})
			if err != nil {
				t.Fatal(err)
			}
			sec.Line(livenessNoteRow(res))
		}
	}
}
