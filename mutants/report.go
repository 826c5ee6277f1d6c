package mutants

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/model"
)

// PythonHarness says what catches each of the formal note's mutants in its
// Python harness (mutation.py, as measured: shared/reference, §6–§7), for
// the side-by-side table of NOTE.md.
var PythonHarness = map[string]string{
	"M1": "comparison with the correct liveness function; its explorer finds nothing at depth 3 or 4",
	"M2": "comparison with the correct device after set, set, clear; its explorer finds nothing at depth 4",
	"M3": "nothing is injected: the two tie policies are seen to differ on one register",
	"M4": "a scenario written for it (the pass-3 history); its deep-history cube would (132 points)",
	"M5": "nothing is injected: the correct sanitiser is seen to drop 2^32",
	"M6": "its explorer at depth 3 (convergence, 16 states)",
	"M7": "a scenario written for it (the pass-1/2 pair); its merge-closure cube would (1,736 pairs)",
	"M8": "its interleaved-delivery test, under clear-wins only",
	"M9": "its escaped-context slot test, under clear-wins only",
}

// DepthString renders a witness depth: a cube point, N actions or steps.
func DepthString(f *Finding) string {
	switch {
	case f == nil:
		return "—"
	case f.Depth < 0:
		return "point"
	case f.Witness != nil && f.Witness.Kind == KindLoad:
		return plural(f.Depth, "step")
	}
	return plural(f.Depth, "action")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// found renders a finding as its check name, with the witness depth for an
// explorer witness.
func found(f *Finding) string {
	if f.Witness != nil && f.Witness.Kind == KindExplore {
		return fmt.Sprintf("%s@%d", f.Check, f.Depth)
	}
	return f.Check
}

// NoteRow is a mutant's row of NOTE.md's mutant table, from its clear-wins
// and set-wins results: the rule and section, the first check that caught
// it under clear-wins and its witness depth, every check the gate saw catch
// it (explorer witnesses with their depth), the set-wins outcome, and what
// catches it in the Python harness.
func NoteRow(clear, set *Result) string {
	m := clear.Mutant
	first, depth := clear.Status, "—"
	if clear.First != nil {
		first, depth = clear.First.Check, DepthString(clear.First)
	}
	var all []string
	for _, f := range clear.Findings {
		all = append(all, found(f))
	}
	also := strings.Join(all, ", ")
	if also == "" {
		also = "—"
	}
	setOut := "not run"
	if set != nil {
		setOut = "survives"
		if set.First != nil {
			setOut = found(set.First)
		}
	}
	py := PythonHarness[m.ID]
	if py == "" {
		py = "—"
	}
	return fmt.Sprintf("| %s | %s (%s) | %s | %s | %s | %s | %s |", m.ID, m.Rule, m.Section, first, depth, also, setOut, py)
}

// NoteRows are the rows of every mutant run under both tie policies.
func (rep *Report) NoteRows() []string {
	byKey := map[string]*Result{}
	for _, r := range rep.Results {
		byKey[r.Mutant.ID+"/"+r.Tie.String()] = r
	}
	var out []string
	for _, r := range rep.Results {
		if r.Tie != model.ClearWins {
			continue
		}
		out = append(out, NoteRow(r, byKey[r.Mutant.ID+"/"+model.SetWins.String()]))
	}
	return out
}

// Problems lists everything that fails the gate: the control tripping a
// check, and each result's problems.
func (rep *Report) Problems() []string {
	var out []string
	for _, tie := range rep.Options.Ties {
		for _, f := range rep.Control[tie] {
			out = append(out, fmt.Sprintf("control (%s, tie %s): %s reports %s: %s", rep.Options.BaselineName, tie, f.Check, f.Invariant, f.Detail))
		}
	}
	for _, r := range rep.Results {
		for _, p := range r.Problems(rep.Options.All) {
			out = append(out, fmt.Sprintf("%s (tie %s): %s", r.Mutant.ID, r.Tie, p))
		}
	}
	return out
}

// Work is the total the suite explores under the production rules, for
// the header of a report: universes (states) and cubes (points).
func (rep *Report) Work() (states, points int64) {
	for _, c := range rep.Suite {
		switch c.Kind {
		case KindExplore:
			states += c.Work
		case KindDirected:
			points += c.Work
		}
	}
	return states, points
}
