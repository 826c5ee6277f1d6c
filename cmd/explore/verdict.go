package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/model"
)

// isConformance reports whether a directed check's label marks a
// spec-text conformance cube (C1, C2, ...): it asks whether a rule set
// does what the spec's text says, not whether the protocol stays safe.
func isConformance(label string) bool {
	return len(label) >= 2 && label[0] == 'C' && label[1] >= '0' && label[1] <= '9'
}

// verdicts splits what failed into safety (every universe invariant and
// every law or hazard check) and spec-text conformance (the C cubes).
func verdicts(out *outcome) (safety, conformance []string) {
	for _, r := range out.Explore {
		for _, c := range r.Invariants {
			// Non-vacuity is about the search's coverage, not the protocol.
			if c.Violations > 0 && !strings.Contains(c.Name, "non-vacuity") {
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
			if isConformance(s.Label) {
				conformance = append(conformance, f)
			} else {
				safety = append(safety, f)
			}
		}
	}
	return safety, conformance
}

// writeVerdict writes the two verdicts, and for an amendment its change
// and how far it reached.
func writeVerdict(w io.Writer, out *outcome) {
	safety, conf := verdicts(out)
	fmt.Fprintln(w)
	if a := out.Amendment; a != nil {
		fmt.Fprintf(w, "amendment %s (%s): %s\n  why: %s\n", a.Name, a.Section, a.Title, a.Rationale)
		for _, d := range out.Diffs {
			fmt.Fprintf(w, "  against spec, %s\n", d)
		}
	}
	switch {
	case out.Status == "unknown" && len(safety) == 0:
		fmt.Fprintln(w, "safety (convergence, no resurrection, intent, model laws): not decided, a bound was hit")
	case len(safety) == 0:
		fmt.Fprintln(w, "safety (convergence, no resurrection, intent, model laws): every check holds")
	default:
		fmt.Fprintf(w, "safety (convergence, no resurrection, intent, model laws): BROKEN: %s\n", strings.Join(safety, ", "))
	}
	ran := false
	for _, s := range out.Directed {
		ran = ran || isConformance(s.Label)
	}
	switch {
	case !ran:
		fmt.Fprintln(w, "spec-text conformance (C cubes): not checked in this run")
	case len(conf) == 0:
		fmt.Fprintln(w, "spec-text conformance (C cubes): the rule set does what the spec's text says")
	default:
		fmt.Fprintf(w, "spec-text conformance (C cubes): differs from today's spec text: %s\n", strings.Join(conf, ", "))
	}
}
