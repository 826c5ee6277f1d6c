package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
)

// verdicts splits what failed into safety and spec-text conformance by
// the one classifier of checks (mutants.Class): a coverage invariant
// (non-vacuity) is about the search, not the protocol, and counts toward
// neither.
func verdicts(out *outcome) (safety, conformance []string) {
	for _, r := range out.Explore {
		for _, c := range r.Invariants {
			if c.Violations > 0 && mutants.InvariantClass(c.Name) != mutants.ClassCoverage {
				safety = append(safety, fmt.Sprintf("%s %s (%s)", c.Label, c.Name, r.Tie))
			}
		}
	}
	for _, s := range out.Directed {
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
	if out.Amendment != nil {
		conformance = append(conformance, out.Amendment.TextDifferences()...)
	}
	return safety, conformance
}

// scope is what the run checked of the gate's suite (mutants.SuiteChecks):
// its universe and the directed checks it ran. The rest (the other
// universes, the simulations, the load searches, the history walk) is not
// run by explore and is listed as not checked.
func scope(out *outcome) mutants.Scope {
	suite := mutants.SuiteChecks(cat)
	ran := map[string]bool{}
	for _, r := range out.Explore {
		name := mutants.KindExplore + ":" + r.Universe
		ran[name] = true
		found := false
		for _, c := range suite {
			found = found || c.Name == name
		}
		if !found { // a universe the suite does not explore (a variant)
			suite = append(suite, mutants.Check{Name: name, Kind: mutants.KindExplore, Universe: r.Universe})
		}
	}
	for _, s := range out.Directed {
		ran[mutants.KindDirected+":"+s.Key] = true
	}
	return mutants.ScopeOf(suite, func(n string) bool { return ran[n] })
}

// writeVerdict writes what the run checked and what not, the two
// verdicts, and for an amendment its change, how far it reached and one
// verdict line that claims nothing of a check not run.
func writeVerdict(w io.Writer, out *outcome) {
	safety, conf := verdicts(out)
	sc := scope(out)
	fmt.Fprintln(w)
	if rd := out.Reading; rd != nil {
		fmt.Fprintf(w, "reading %s (%s): the other reading of a sentence of the text (ERRATA.md, \"Sentences with two readings\"); "+
			"a conformance check that decides the text's literal reading is a spec-text difference here\n", rd.Name, rd.Section)
	}
	if a := out.Amendment; a != nil {
		fmt.Fprintf(w, "amendment %s (%s): %s\n  why: %s\n", a.Name, a.Section, a.Title, a.Rationale)
		for _, d := range out.Diffs {
			fmt.Fprintf(w, "  against %s, %s\n", model.ProposedName, d)
		}
	}
	for _, l := range mutants.ScopeLines(sc, "") {
		fmt.Fprintln(w, l)
	}
	if len(sc.NotRun) > 0 && out.Amendment != nil {
		fmt.Fprintf(w, "  (the gate runs every check with it as the baseline: mutate -control %s)\n", out.Amendment.Name)
	}
	switch {
	case out.Status == "unknown" && len(safety) == 0:
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
	if (out.Amendment != nil || out.Reading != nil) && out.Status != "unknown" {
		fmt.Fprintf(w, "verdict: %s\n", amendmentVerdict(out))
	}
}

// amendmentVerdict is the verdict line of a run under an amendment.
func amendmentVerdict(out *outcome) string {
	safety, conf := verdicts(out)
	return mutants.Verdict(scope(out), safety, conf)
}
