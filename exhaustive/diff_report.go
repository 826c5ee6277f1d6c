package exhaustive

import "fmt"

// Lines says what a lockstep search found, as a user reads it: "no
// difference within the bounds" with the bounds searched, or the
// shortest history that tells the rule sets apart, step by step, then
// what differs after it.
func (r *DiffResult) Lines() []string {
	if r.Differences == nil {
		return []string{fmt.Sprintf("no difference within the bounds: universe %s, depth %d, %d distinct pairs of states; a user of any device sees the same frontiers, overrides, failures and published blobs under %s and %s",
			r.Universe, r.Depth, r.Pairs, r.A, r.B)}
	}
	steps := fmt.Sprintf("%d steps", len(r.Actions))
	if len(r.Actions) == 1 {
		steps = "1 step"
	}
	out := []string{fmt.Sprintf("the shortest history that tells %s and %s apart (%s, universe %s, %d distinct pairs of states explored):", r.A, r.B, steps, r.Universe, r.Pairs)}
	for i, a := range r.Actions {
		out = append(out, fmt.Sprintf("  step %d: %s", i+1, a))
	}
	out = append(out, "then:")
	for _, d := range r.Differences {
		out = append(out, "  "+d)
	}
	return out
}

// DiffDoc is a lockstep search's result as a JSON document: its bounds,
// and the history and differences (both empty, never null, when none was
// found).
type DiffDoc struct {
	Universe    string   `json:"universe"`
	Depth       int      `json:"depth"`
	A           string   `json:"a"`
	B           string   `json:"b"`
	Pairs       int      `json:"pairs"`
	Actions     []string `json:"actions"`
	Differences []string `json:"differences"`
}

// Document is the result as its JSON document.
func (r *DiffResult) Document() DiffDoc {
	d := DiffDoc{Universe: r.Universe, Depth: r.Depth, A: r.A, B: r.B, Pairs: r.Pairs, Actions: []string{}, Differences: []string{}}
	for _, a := range r.Actions {
		d.Actions = append(d.Actions, a.String())
	}
	d.Differences = append(d.Differences, r.Differences...)
	return d
}
