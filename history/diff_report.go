package history

import (
	"fmt"

	"github.com/nip-rs/harness/witnessfile"
)

// Lines says what a walk's lockstep search found, as a member reads it:
// "no difference within the bounds" with the bounds searched, or the
// shortest history that tells the rule sets apart, step by step, then
// what differs after it.
func (r *DiffResult) Lines() []string {
	if r.Differences == nil {
		return []string{fmt.Sprintf("no difference within the bounds: walk variant %s, depth %d, %d distinct pairs of states; a member sees the same stored wraps and saved cursor under %s and %s",
			r.Variant, r.Depth, r.Pairs, r.A, r.B)}
	}
	out := []string{fmt.Sprintf("the shortest history that tells %s and %s apart (%d steps, walk variant %s, %d distinct pairs of states explored):",
		r.A, r.B, len(r.Actions), r.Variant, r.Pairs)}
	for i, a := range r.Actions {
		out = append(out, fmt.Sprintf("  step %d: %s", i+1, describeDiffAction(a)))
	}
	out = append(out, "then:")
	for _, d := range r.Differences {
		out = append(out, "  "+d)
	}
	return out
}

// describeDiffAction says a step of a difference as a witness's steps do:
// the action, its context, and whether a wrap arrives during the round.
func describeDiffAction(a witnessfile.Action) string {
	s := a.Action
	if a.Ctx != "" {
		s += " " + a.Ctx
	}
	if a.Value == 1 {
		s += " (a wrap arrives during the round)"
	}
	return s
}
