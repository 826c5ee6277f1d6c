package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/nip-rs/harness/witnessfile"
)

// KindWalkDiff is the witness kind of a difference between two rule sets
// of the walk: a history after which a member sees a different store or
// cursor under one than under the other (Diff).
const KindWalkDiff = "walk-diff"

// DiffResult is what Diff found.
type DiffResult struct {
	Variant string
	Depth   int
	A, B    string
	// Pairs is the distinct pairs of states (one per rule set) explored.
	Pairs int
	// Actions is the shortest history, nil when no difference was found.
	Actions []witnessfile.Action
	// Differences says what differs after the last action, one line each.
	Differences []string
}

// Diff searches universe u breadth first, to depth (u.Depth when 0),
// running every history under rule sets a and b side by side, and stops
// at the first history after which a member could tell them apart: the
// wraps the client holds (what it shows) or its saved cursor (what it
// claims complete). Both sides take the same transition from states that
// agree on everything a relay holds, so the first difference found is the
// shortest. Pairs are deduplicated by both sides' whole states.
func Diff(u UniverseConfig, variant string, a, b *Rules, depth int) (*DiffResult, error) {
	wa, err := NewWorld(u, a, ReportGate)
	if err != nil {
		return nil, err
	}
	wb, err := NewWorld(u, b, ReportGate)
	if err != nil {
		return nil, err
	}
	if depth <= 0 {
		depth = u.Depth
	}
	res := &DiffResult{Variant: variant, Depth: depth, A: a.Name, B: b.Name}
	type node struct {
		sa, sb state
		path   []int
	}
	key := func(x, y state) string { return fmt.Sprint(x.encode(), y.encode()) }
	seen := map[string]bool{key(initial(), initial()): true}
	level := []node{{initial(), initial(), nil}}
	for d := 0; d < depth && len(level) > 0; d++ {
		var next []node
		for _, n := range level {
			for t := range wa.Transitions() {
				na, _, okA := wa.step(n.sa, t)
				nb, _, okB := wb.step(n.sb, t)
				if !okA && !okB {
					continue
				}
				path := append(slices.Clone(n.path), t)
				if diffs := walkDifferences(actionOf(t), a.Name, b.Name, okA, okB, na, nb); len(diffs) > 0 {
					res.Differences, res.Pairs = diffs, len(seen)
					for _, p := range path {
						res.Actions = append(res.Actions, actionOf(p))
					}
					return res, nil
				}
				k := key(na, nb)
				if seen[k] {
					continue
				}
				seen[k] = true
				next = append(next, node{na, nb, path})
			}
		}
		level = next
	}
	res.Pairs = len(seen)
	return res, nil
}

// walkDifferences lists what a member could tell apart after action act:
// whether it could be taken at all, the wraps stored, the cursor saved.
func walkDifferences(act witnessfile.Action, an, bn string, okA, okB bool, sa, sb state) []string {
	if okA != okB {
		return []string{fmt.Sprintf("%s can be taken under %s: %t, under %s: %t", describe(act), an, okA, bn, okB)}
	}
	var out []string
	if sa.store != sb.store {
		out = append(out, fmt.Sprintf("the client stores %s under %s, %s under %s", maskString(sa.store), an, maskString(sb.store), bn))
	}
	if !sameCursor(sa.cursor, sb.cursor) {
		out = append(out, fmt.Sprintf("the cursor is %s under %s, %s under %s", sa.cursor, an, sb.cursor, bn))
	}
	return out
}

// walkDiffFile is a walk difference witness as its file holds it.
type walkDiffFile struct {
	Kind        string               `json:"kind"`
	Universe    string               `json:"universe"`
	Variant     string               `json:"variant"`
	Depth       int                  `json:"depth"`
	Rules       string               `json:"rules"`
	Other       string               `json:"other"`
	Invariant   string               `json:"invariant"`
	Detail      string               `json:"detail"`
	Actions     []witnessfile.Action `json:"actions"`
	Differences []string             `json:"differences"`
}

// InvariantWalkDiff is what a walk difference witness shows.
const InvariantWalkDiff = "member-visible-difference"

// WitnessJSON is the difference as a witness file; nil when none was
// found.
func (r *DiffResult) WitnessJSON() []byte {
	if r.Differences == nil {
		return nil
	}
	f := walkDiffFile{Kind: KindWalkDiff, Universe: UniverseName, Variant: r.Variant, Depth: r.Depth, Rules: r.A, Other: r.B,
		Invariant: InvariantWalkDiff, Detail: r.Differences[0], Actions: r.Actions, Differences: r.Differences}
	b, _ := json.MarshalIndent(f, "", "  ") // plain data always marshals
	return append(b, '\n')
}

// ReplayDiff replays a walk difference witness: its history under both
// rule sets it names (resolved by rules), in the variant it names
// (resolved by variant), reproduced when the differences after the last
// step are the recorded ones. A file Diff could not have written (an
// unknown member, a step the universe cannot take, a difference before
// the last step, a depth out of bounds) is refused with ErrBad.
func ReplayDiff(w *witnessfile.Witness, rules func(string) (*Rules, bool), variant func(string) (UniverseConfig, bool)) (*witnessfile.Replayed, error) {
	var f walkDiffFile
	dec := json.NewDecoder(bytes.NewReader(w.Raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, witnessfile.Bad("walk difference witness: %v", err)
	}
	if dec.More() {
		return nil, witnessfile.Bad("walk difference witness: data after the object")
	}
	if f.Depth < 1 || f.Depth > witnessfile.MaxDepth || len(f.Actions) == 0 || len(f.Actions) > f.Depth {
		return nil, witnessfile.Bad("walk difference witness: %d actions within depth %d: want 1..depth, depth at most %d", len(f.Actions), f.Depth, witnessfile.MaxDepth)
	}
	if f.Universe != UniverseName || f.Invariant != InvariantWalkDiff || len(f.Differences) == 0 {
		return nil, witnessfile.Bad("walk difference witness: universe %q, invariant %q, %d differences: want %s, %s and at least one",
			f.Universe, f.Invariant, len(f.Differences), UniverseName, InvariantWalkDiff)
	}
	u, ok := variant(f.Variant)
	if !ok {
		return nil, witnessfile.Bad("walk difference witness: no variant %q", f.Variant)
	}
	a, ok := rules(f.Rules)
	if !ok {
		return nil, witnessfile.Bad("walk difference witness: rules %q: not a rule set of the walk", f.Rules)
	}
	b, ok := rules(f.Other)
	if !ok {
		return nil, witnessfile.Bad("walk difference witness: rules %q: not a rule set of the walk", f.Other)
	}
	wa, err := NewWorld(u, a, ReportGate)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	wb, err := NewWorld(u, b, ReportGate)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	var text bytes.Buffer
	fmt.Fprintf(&text, "universe %s, variant %s, %s vs %s\n", UniverseName, f.Variant, a.Name, b.Name)
	sa, sb := initial(), initial()
	var got []string
	for i, act := range f.Actions {
		t, err := transOf(act)
		if err != nil || t < 0 {
			return nil, witnessfile.Bad("action %d (%s): not a step of the walk's universe (%v)", i+1, act.Action, err)
		}
		na, _, okA := wa.step(sa, t)
		nb, _, okB := wb.step(sb, t)
		if !okA && !okB {
			return nil, witnessfile.Bad("action %d (%s): not a step the universe can take there", i+1, describe(act))
		}
		fmt.Fprintf(&text, "step %d: %s\n", i+1, describe(act))
		got = walkDifferences(act, a.Name, b.Name, okA, okB, na, nb)
		if len(got) > 0 && i < len(f.Actions)-1 {
			return nil, witnessfile.Bad("action %d: the rule sets already differ there (%s), before the witness's last step", i+1, got[0])
		}
		sa, sb = na, nb
	}
	for _, d := range got {
		fmt.Fprintf(&text, "  %s\n", d)
	}
	out := &witnessfile.Replayed{Reproduced: slices.Equal(got, f.Differences), Text: text.String()}
	if len(got) > 0 {
		out.Found = []string{InvariantWalkDiff + ": " + got[0]}
		out.Detail = got[0]
	}
	return out, nil
}
