package main

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
	"github.com/nip-rs/harness/witnesshtml"
)

// writeHTML writes the first witness of every caught mutant, under each
// tie policy, as one page: each says which check caught the mutant and
// what the mutant changes.
func writeHTML(path string, rep *mutants.Report) error {
	p := witnesshtml.Page{Title: "mutant witnesses (control " + rep.Options.BaselineName + ")"}
	for _, r := range rep.Results {
		f := r.First
		if f == nil || f.Witness == nil {
			continue
		}
		w, err := witnessfile.Parse(f.Witness.JSON)
		if err != nil {
			return fmt.Errorf("-html: %s: %v", r.Mutant.ID, err)
		}
		text := f.Witness.Text
		if w.Kind == witnessfile.KindLoad {
			text = "witness " + w.Invariant + ": " + strings.TrimPrefix(text, "check ")
		}
		pw := witnesshtml.FromWitness(w, text, nil)
		pw.Title = fmt.Sprintf("%s (tie %s, %s): %s", r.Mutant.ID, r.Tie, r.Mutant.Rule, pw.Title)
		pw.Verdict = fmt.Sprintf("caught: %s by %s (%s fails)", r.Mutant.ID, f.Check, f.Invariant)
		pw.Documented = false
		where := "every device"
		if r.Mutant.OneDevice {
			where = "device d0 only, every other device running the control " + rep.Options.BaselineName
		}
		pw.Changed = []string{
			fmt.Sprintf("mutant %s on %s: it drops the rule \u201c%s\u201d (%s)", r.Mutant.ID, where, r.Mutant.Rule, r.Mutant.Section),
			fmt.Sprintf("what the mutant changes: the rule field %s", strings.Join(r.Mutant.ChangedFields(), ", ")),
			fmt.Sprintf("the run's tie policy: %s-wins", r.Tie),
		}
		if w.Kind == history.KindHistory {
			if rules, ok := mutants.HistoryRuleSet(w.Rules); ok {
				if v, err := history.Trace(w, rules); err == nil {
					pw.Walk = v
				}
			}
		}
		p.Witnesses = append(p.Witnesses, pw)
	}
	if err := witnesshtml.WriteFile(path, p); err != nil {
		return fmt.Errorf("-html: %w", err)
	}
	return nil
}
