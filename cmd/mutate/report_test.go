package main

import (
	"bytes"
	"encoding/json"
	"slices"
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

	// A baseline that fails a safety check fails the run on its own
	// finding, and no mutant of it is judged: no survivor is listed.
	rep.Control[model.ClearWins] = append(rep.Control[model.ClearWins], &mutants.Finding{Check: "explore:network", Invariant: "N1", Detail: "y"})
	rep.Results = append(rep.Results, &mutants.Result{Mutant: m1, Tie: model.ClearWins, Status: mutants.StatusSurvived, Skipped: []string{conf, "explore:network"}})
	d = newDoc("mutate -tie=clear", rep, nil, false)
	d.finish()
	problems := strings.Join(d.Problems, "\n")
	if d.Status != "failed" || !strings.Contains(problems, "control (b-max-frontier, tie clear): explore:network reports N1: y") || strings.Contains(problems, "M1") {
		t.Errorf("status %q, problems %q", d.Status, d.Problems)
	}
	for _, r := range d.Results {
		if r.Status != StatusNotJudged {
			t.Errorf("%s: status %q under an unsafe baseline, want %q", r.ID, r.Status, StatusNotJudged)
		}
	}
	if !strings.Contains(d.Summary[0], "0 survived") || !strings.Contains(d.Summary[0], "2 not judged") {
		t.Errorf("summary %q", d.Summary[0])
	}
	if !strings.HasPrefix(d.Control.Verdict, "UNSAFE: explore:network N1 (clear)") {
		t.Errorf("verdict %q", d.Control.Verdict)
	}
}

// With -only, the control reports findings of the checks it ran and of no
// other, even of a check whose control it ran to order the suite (the
// simulations, the walk): an amendment that fails simulate:hierarchy is
// not reported BROKEN there by a run that lists simulate:hierarchy as not
// checked. Its verdict is UNKNOWN (checks not run), exit 3, unless a
// check it ran fails.
func TestOnlyReportsFindingsOfChecksRun(t *testing.T) {
	code, out, errOut := runCLI(t, "-control", "mark-read-own-counter", "-only", "M1", "-tie", "clear", "-json", "-progress=false", "-witness", t.TempDir())
	var d gateDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("exit %d: %v\n%s%s", code, err, out, errOut)
	}
	checked := map[string]bool{}
	for _, c := range d.Control.Checked {
		checked[c] = true
	}
	for _, c := range d.Control.NotChecked {
		if checked[c] {
			t.Errorf("%s both checked and not checked", c)
		}
	}
	if !slices.Contains(d.Control.NotChecked, "simulate:hierarchy") {
		t.Fatalf("simulate:hierarchy ran for M1 (not checked: %v): the test no longer shows what it is for", d.Control.NotChecked)
	}
	for _, f := range d.Control.Findings {
		if !checked[f.Check] {
			t.Errorf("finding of %s, a check not run: %+v", f.Check, f)
		}
	}
	if strings.Contains(d.Control.Safety, "simulate:") || strings.Contains(d.Control.Verdict, "simulate:hierarchy N3") {
		t.Errorf("safety %q, verdict %q", d.Control.Safety, d.Control.Verdict)
	}
	if !strings.HasPrefix(d.Control.Verdict, "UNKNOWN") && !strings.HasPrefix(d.Control.Verdict, "UNSAFE") {
		t.Errorf("verdict %q: with checks not run it is unknown or unsafe, never safe", d.Control.Verdict)
	}
}
