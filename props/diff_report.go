package props

import (
	"fmt"
	"strings"
)

// Lines says what a load difference search found, as a user reads it:
// "no difference within the bounds" with the bounds searched, or the
// first scenario that tells the rule sets apart, shrunk, step by step,
// then what differs when the load runs to its verdict.
func (r *DiffResult) Lines() []string {
	bounds := fmt.Sprintf("relay profiles %s, %d scenarios per profile, seed %d", strings.Join(r.Profiles, ", "), r.Cases, r.Seed)
	f := r.Found
	if f == nil {
		return []string{fmt.Sprintf("no difference within the bounds: %s; every load of every scenario ends with the same verdict, reason and retained coordinates under %s and %s",
			bounds, r.A, r.B)}
	}
	out := []string{fmt.Sprintf("the first load scenario that tells %s and %s apart (scenario %d of the search over %s; case %d, shrunk to %d steps):",
		r.A, r.B, r.Scenarios, bounds, f.Case, len(f.Steps)), "  " + f.Config.String()}
	for i, s := range f.Steps {
		out = append(out, fmt.Sprintf("  step %d: %s", i+1, s))
	}
	out = append(out, "then the load runs to its verdict:")
	for _, d := range f.Differences {
		out = append(out, "  "+d)
	}
	return out
}

// DiffDoc is a load difference search's result as a JSON document: its
// bounds, and the scenario found (case and config null, steps and
// differences empty, when none was).
type DiffDoc struct {
	Universe    string   `json:"universe"`
	A           string   `json:"a"`
	B           string   `json:"b"`
	Profiles    []string `json:"profiles"`
	Cases       int      `json:"cases"`
	Seed        uint64   `json:"seed"`
	Scenarios   int      `json:"scenarios"`
	Case        *int     `json:"case"`
	Config      *string  `json:"config"`
	Steps       []string `json:"steps"`
	Differences []string `json:"differences"`
}

// Document is the result as its JSON document, universe naming the
// search as the command that ran it does.
func (r *DiffResult) Document(universe string) DiffDoc {
	d := DiffDoc{Universe: universe, A: r.A, B: r.B, Profiles: r.Profiles, Cases: r.Cases, Seed: r.Seed, Scenarios: r.Scenarios,
		Steps: []string{}, Differences: []string{}}
	if f := r.Found; f != nil {
		c, cfg := f.Case, f.Config.String()
		d.Case, d.Config = &c, &cfg
		for _, s := range f.Steps {
			d.Steps = append(d.Steps, s.String())
		}
		d.Differences = append(d.Differences, f.Differences...)
	}
	return d
}
