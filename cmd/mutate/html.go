package main

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
	"github.com/nip-rs/harness/witnesshtml"
)

// writeHTML writes the first witness of every caught mutant, under each
// tie policy, as one page.
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
		p.Witnesses = append(p.Witnesses, pw)
	}
	if err := witnesshtml.WriteFile(path, p); err != nil {
		return fmt.Errorf("-html: %w", err)
	}
	return nil
}
