package runreport

import (
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
)

// Verdicts splits what failed into safety and spec-text conformance by
// the one classifier of checks (mutants.Class): a coverage invariant
// (non-vacuity) is about the search, not the protocol, and counts toward
// neither.
func (r *Run) Verdicts() (safety, conformance []string) {
	for _, e := range r.Explore {
		for _, c := range e.Invariants {
			if c.Violations > 0 && mutants.InvariantClass(c.Name) != mutants.ClassCoverage {
				safety = append(safety, fmt.Sprintf("%s %s (%s)", c.Label, c.Name, e.Tie))
			}
		}
	}
	for _, s := range r.Directed {
		for _, t := range []model.TiePolicy{model.ClearWins, model.SetWins} {
			if s.Violations[t] == 0 {
				continue
			}
			f := fmt.Sprintf("%s %s (%s)", s.Label, s.Key, t)
			if mutants.ClassOfName(mutants.KindDirected+":"+s.Key) == mutants.ClassSpecText {
				conformance = append(conformance, f)
			} else {
				safety = append(safety, f)
			}
		}
	}
	if r.Amendment != nil {
		conformance = append(conformance, r.Amendment.TextDifferences()...)
	}
	return safety, conformance
}

// Scope is what the run checked of the gate's suite over cat
// (mutants.SuiteChecks): its universe and the directed checks it ran. The
// rest (the other universes, the simulations, the load searches, the
// history walk) is not run by one exploration and is listed as not
// checked.
func (r *Run) Scope(cat *exhaustive.Catalog) mutants.Scope {
	suite := mutants.SuiteChecks(cat)
	ran := map[string]bool{}
	for _, e := range r.Explore {
		name := mutants.KindExplore + ":" + e.Universe
		ran[name] = true
		found := false
		for _, c := range suite {
			found = found || c.Name == name
		}
		if !found { // a universe the suite does not explore (a variant)
			suite = append(suite, mutants.Check{Name: name, Kind: mutants.KindExplore, Universe: e.Universe})
		}
	}
	for _, s := range r.Directed {
		ran[mutants.KindDirected+":"+s.Key] = true
	}
	return mutants.ScopeOf(suite, func(n string) bool { return ran[n] })
}

// Verdict is the verdict line of a run under an amendment or a reading
// (mutants.Verdict): it claims nothing of a check the run did not run.
func (r *Run) Verdict(cat *exhaustive.Catalog) string {
	safety, conf := r.Verdicts()
	return mutants.Verdict(r.Scope(cat), safety, conf)
}

// WriteVerdict writes what the run checked and what not, the two
// verdicts, and for an amendment its change, how far it reached and one
// verdict line that claims nothing of a check not run.
func (r *Run) WriteVerdict(w io.Writer, cat *exhaustive.Catalog) {
	safety, conf := r.Verdicts()
	sc := r.Scope(cat)
	fmt.Fprintln(w)
	if rd := r.Reading; rd != nil {
		fmt.Fprintf(w, "reading %s (%s): the other reading of a sentence of the text (ERRATA.md, \"Sentences with two readings\"); "+
			"a conformance check that decides the text's literal reading is a spec-text difference here\n", rd.Name, rd.Section)
	}
	if a := r.Amendment; a != nil {
		fmt.Fprintf(w, "amendment %s (%s): %s\n  why: %s\n", a.Name, a.Section, a.Title, a.Rationale)
		for _, d := range r.Diffs {
			fmt.Fprintf(w, "  against %s, %s\n", model.ProposedName, d)
		}
	}
	for _, l := range mutants.ScopeLines(sc, "") {
		fmt.Fprintln(w, l)
	}
	if len(sc.NotRun) > 0 && r.Amendment != nil {
		fmt.Fprintf(w, "  (the gate runs every check with it as the baseline: mutate -control %s)\n", r.Amendment.Name)
	}
	switch {
	case r.Status == "unknown" && len(safety) == 0:
		fmt.Fprintln(w, "safety: not decided, a bound was hit")
	case len(safety) == 0:
		fmt.Fprintf(w, "safety: every check run holds (%d: %s)\n", len(sc.Safety), strings.Join(sc.Safety, ", "))
	default:
		fmt.Fprintf(w, "safety: BROKEN: %s\n", strings.Join(safety, ", "))
	}
	switch {
	case len(sc.SpecText) == 0:
		fmt.Fprintln(w, "spec-text conformance: not checked in this run")
	case len(conf) == 0:
		fmt.Fprintf(w, "spec-text conformance: the rule set does what the spec's text says, on the %d conformance checks run\n", len(sc.SpecText))
	default:
		fmt.Fprintf(w, "spec-text conformance: differs from today's spec text: %s\n", strings.Join(conf, ", "))
	}
	if r.Judged() && r.Status != "unknown" {
		fmt.Fprintf(w, "verdict: %s\n", r.Verdict(cat))
	}
}
