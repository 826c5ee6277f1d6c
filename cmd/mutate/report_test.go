package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
)

// The policy under an amendment: a survivor only a spec-text conformance
// check could catch (the amendment fails that check itself) is a spec-text
// difference, said in the summary, and the gate passes; a survivor a
// failed safety check hides fails it. The document's lines are derived
// from its data, as -merge derives them.
func TestSpecTextSurvivorUnderAnAmendment(t *testing.T) {
	m17, _ := mutants.Lookup("M17")
	m1, _ := mutants.Lookup("M1")
	conf := "directed:action-conformance"
	rep := &mutants.Report{
		Options: mutants.Options{Ties: []model.TiePolicy{model.ClearWins}, BaselineName: "b-max-frontier"},
		Control: map[model.TiePolicy][]*mutants.Finding{model.ClearWins: {{Check: conf, Invariant: "C6-action", Detail: "x"}}},
		Results: []*mutants.Result{
			{Mutant: m17, Tie: model.ClearWins, Status: mutants.StatusSurvived, Skipped: []string{conf}, Ran: 41},
		},
	}
	rep.Suite = append(rep.Suite, mutants.SuiteChecks(cat)...)
	d := newDoc("mutate -tie=clear", rep, nil, false)
	d.finish()
	if d.Status != "ok" || len(d.Problems) != 0 || d.Results[0].Status != mutants.StatusSpecText {
		t.Fatalf("status %q, problems %q, M17 %q", d.Status, d.Problems, d.Results[0].Status)
	}
	for _, want := range []string{"1 spec-text differences", "M17, only directed:action-conformance could catch it"} {
		if !strings.Contains(d.Summary[0], want) {
			t.Errorf("summary lacks %q: %s", want, d.Summary[0])
		}
	}
	if !strings.HasPrefix(d.Control.Verdict, "safe, with a spec-text difference: directed:action-conformance") || len(d.Control.NotChecked) != 0 {
		t.Errorf("verdict %q, not checked %v", d.Control.Verdict, d.Control.NotChecked)
	}
	var text bytes.Buffer
	writeControl(&text, d)
	if !strings.Contains(text.String(), "  verdict: "+d.Control.Verdict) {
		t.Errorf("text control block lacks the document's verdict:\n%s", text.String())
	}

	// A survivor a safety check's failure hides is not excused.
	rep.Control[model.ClearWins] = append(rep.Control[model.ClearWins], &mutants.Finding{Check: "explore:network", Invariant: "N1", Detail: "y"})
	rep.Results = append(rep.Results, &mutants.Result{Mutant: m1, Tie: model.ClearWins, Status: mutants.StatusSurvived, Skipped: []string{conf, "explore:network"}})
	d = newDoc("mutate -tie=clear", rep, nil, false)
	d.finish()
	if d.Status != "failed" || !strings.Contains(strings.Join(d.Problems, "\n"), "M1 (tie clear): survived every check it ran") {
		t.Errorf("status %q, problems %q", d.Status, d.Problems)
	}
	if !strings.HasPrefix(d.Control.Verdict, "UNSAFE: explore:network N1 (clear)") {
		t.Errorf("verdict %q", d.Control.Verdict)
	}
}
