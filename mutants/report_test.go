package mutants

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// The pinned mutant table's count of the catalogue is the catalogue's:
// the sentence is computed, and the table's first line is it word for
// word.
func TestNoteCountsTheCatalogue(t *testing.T) {
	s := CountSentence()
	n := len(All())
	if !strings.HasPrefix(s, fmt.Sprintf("%d mutants (", n)) {
		t.Fatalf("sentence %q does not start with the catalogue's %d", s, n)
	}
	pinned, err := os.ReadFile(mutantTable)
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(pinned), "\n"); first != s {
		t.Errorf("%s opens with %q, the catalogue's sentence is %q", mutantTable, first, s)
	}
}

// A survivor is a spec-text difference only when every check it could not
// use is a spec-text conformance check (the baseline fails them); one the
// baseline's failed safety check hides stays a survivor, and the gate
// fails on it.
func TestSpecTextOnly(t *testing.T) {
	m17, _ := Lookup("M17")
	m27, _ := Lookup("M27")
	for _, tc := range []struct {
		r    Result
		want bool
	}{
		{Result{Mutant: m17, Tie: model.ClearWins, Status: StatusSurvived, Skipped: []string{"directed:action-conformance"}}, true},
		{Result{Mutant: m17, Tie: model.ClearWins, Status: StatusSurvived, Skipped: []string{"directed:action-conformance", "explore:network"}}, false},
		{Result{Mutant: m17, Tie: model.ClearWins, Status: StatusSurvived}, false},
		{Result{Mutant: m17, Tie: model.ClearWins, Status: StatusCaught, Skipped: []string{"directed:action-conformance"}}, false},
		{Result{Mutant: m27, Tie: model.ClearWins, Status: StatusEquivalent, Skipped: []string{"directed:action-conformance"}}, false},
	} {
		r := tc.r
		if got := r.SpecTextOnly(); got != tc.want {
			t.Errorf("%s %s skipped %v: SpecTextOnly %t, want %t", r.Mutant.ID, r.Status, r.Skipped, got, tc.want)
		}
		survival := false
		for _, p := range r.Problems(false) {
			survival = survival || strings.Contains(p, "survived")
		}
		if wantProblem := r.Status == StatusSurvived && !tc.want && r.Mutant.Equivalent == ""; survival != wantProblem {
			t.Errorf("%s skipped %v: a survival problem %t, want %t", r.Mutant.ID, r.Skipped, survival, wantProblem)
		}
		if tc.want && r.ShownStatus() != StatusSpecText {
			t.Errorf("shown status %q", r.ShownStatus())
		}
	}
}

// Every mutant replaces at least one rule field (a function field by the
// code it runs), and the fields named are the ones its change is to.
func TestChangedFields(t *testing.T) {
	for _, m := range All() {
		if len(m.ChangedFields()) == 0 {
			t.Errorf("%s: no field changed", m.ID)
		}
	}
	for id, want := range map[string]string{"M3": "Tie (set, not clear)", "M6": "Join (a function of its own)", "M9": "Slots.GroupOf (a function of its own)"} {
		m, _ := Lookup(id)
		if got := strings.Join(m.ChangedFields(), ","); got != want {
			t.Errorf("%s changes %q, want %q", id, got, want)
		}
	}
}
