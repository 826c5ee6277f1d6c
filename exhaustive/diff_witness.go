package exhaustive

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// KindDiff is the witness kind of a difference between two rule sets: a
// history after which a user can tell them apart (Diff).
const KindDiff = "diff"

// InvariantDiff is what a difference witness shows: not a violation, but
// something a user sees otherwise under the two rule sets.
const InvariantDiff = "user-visible-difference"

// diffFile is a difference witness as its file holds it: the universe,
// the two rule sets (rules and other) under one tie, the history, and what
// a user sees otherwise after its last step.
type diffFile struct {
	Kind        string               `json:"kind"`
	Universe    string               `json:"universe"`
	Depth       int                  `json:"depth"`
	Tie         string               `json:"tie"`
	Rules       string               `json:"rules"`
	Other       string               `json:"other"`
	Invariant   string               `json:"invariant"`
	Detail      string               `json:"detail"`
	Actions     []witnessfile.Action `json:"actions"`
	Differences []string             `json:"differences"`
}

// WitnessJSON is the difference found as a witness file, tie the policy
// both sides ran under; nil when no difference was found.
func (r *DiffResult) WitnessJSON(tie model.TiePolicy) []byte {
	if r.Differences == nil {
		return nil
	}
	f := diffFile{Kind: KindDiff, Universe: r.Universe, Depth: r.Depth, Tie: tie.String(), Rules: r.A, Other: r.B,
		Invariant: InvariantDiff, Detail: r.Differences[0], Actions: []witnessfile.Action{}, Differences: r.Differences}
	for _, a := range r.Actions {
		f.Actions = append(f.Actions, a.toFile())
	}
	b, _ := json.MarshalIndent(f, "", "  ") // plain data always marshals
	return append(b, '\n')
}

// ReplayDiff replays a difference witness: its history under both rule
// sets it names (resolved by rules, which also gives each its tie), and
// reports it reproduced when the differences after the last step are the
// ones recorded. A file that is not one Diff could have written (an
// unknown member, an action the universe cannot take at that step, a
// depth beyond the bound) is refused with ErrBad.
func ReplayDiff(cat *Catalog, w *witnessfile.Witness, rules func(name string, tie model.TiePolicy) (*model.Rules, error)) (*witnessfile.Replayed, error) {
	var f diffFile
	dec := json.NewDecoder(bytes.NewReader(w.Raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, witnessfile.Bad("difference witness: %v", err)
	}
	if f.Depth < 0 || f.Depth > witnessfile.MaxDepth || len(f.Actions) > f.Depth || len(f.Actions) == 0 {
		return nil, witnessfile.Bad("difference witness: %d actions within depth %d: want 1..depth, depth at most %d", len(f.Actions), f.Depth, witnessfile.MaxDepth)
	}
	if f.Invariant != InvariantDiff || len(f.Differences) == 0 {
		return nil, witnessfile.Bad("difference witness: invariant %q with %d differences: want %s and at least one", f.Invariant, len(f.Differences), InvariantDiff)
	}
	u, err := cat.Universe(f.Universe)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	if u.Network != nil {
		return nil, witnessfile.Bad("universe %s: %v", u.Name, ErrDiffNetwork)
	}
	tie, err := model.ParseTiePolicy(f.Tie)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	a, err := rules(f.Rules, tie)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	b, err := rules(f.Other, tie)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	var ra, rb []*model.Replica
	for _, spec := range u.Devices {
		ra = append(ra, newReplica(spec, a))
		rb = append(rb, newReplica(spec, b))
	}
	var text bytes.Buffer
	fmt.Fprintf(&text, "universe %s, %s vs %s, tie %s\n", u.Name, a.Name, b.Name, tie)
	var got []string
	for i, j := range f.Actions {
		want, err := fromFile(j)
		if err != nil {
			return nil, witnessfile.Bad("action %d: %v", i+1, err)
		}
		found := false
		for t := range u.numTransitions() {
			xa, xb := cloneAll(ra), cloneAll(rb)
			actA, _, okA := u.apply(xa, t)
			if actA.String() != want.String() {
				continue
			}
			actB, _, okB := u.apply(xb, t)
			if !okA && !okB {
				continue
			}
			found = true
			ra, rb = xa, xb
			fmt.Fprintf(&text, "step %d: %s\n", i+1, actA)
			switch {
			case okA != okB:
				got = []string{fmt.Sprintf("%s is possible under %s: %t, under %s: %t", actA, a.Name, okA, b.Name, okB)}
			case i == len(f.Actions)-1:
				got = differences(&u, ra, rb, &actA, &actB)
			}
			break
		}
		if !found {
			return nil, witnessfile.Bad("action %d (%s): not a step universe %s can take there", i+1, want, u.Name)
		}
		if got != nil && i < len(f.Actions)-1 {
			return nil, witnessfile.Bad("action %d: the rule sets already differ there (%s), before the witness's last step", i+1, got[0])
		}
	}
	for _, d := range got {
		fmt.Fprintf(&text, "  %s\n", d)
	}
	out := &witnessfile.Replayed{Reproduced: slices.Equal(got, f.Differences), Text: text.String()}
	if len(got) > 0 {
		out.Found = []string{InvariantDiff + ": " + got[0]}
		out.Detail = got[0]
	}
	return out, nil
}
