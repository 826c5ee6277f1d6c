package history

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// KindWalkLiveness is the witness kind of a walk that never ends (a
// WalkLasso written to a file).
const KindWalkLiveness = "walk-liveness"

// InvWalkEnds names the walk's liveness property in findings.
const InvWalkEnds = "every-walk-ends"

// lassoFile is a WalkLasso on disk: the rule set it was found under, the
// universe, and the three parts as transition indices.
type lassoFile struct {
	Kind      string         `json:"kind"`
	Invariant string         `json:"invariant"`
	Rules     string         `json:"rules"`
	Universe  UniverseConfig `json:"universe"`
	Prefix    []int          `json:"prefix"`
	Approach  []int          `json:"approach"`
	Loop      []int          `json:"loop"`
	Detail    string         `json:"detail"`
}

// JSON is the lasso as a witness file found under the rule set named
// rules (indented, one trailing newline).
func (l *WalkLasso) JSON(rules string) []byte {
	f := lassoFile{Kind: KindWalkLiveness, Invariant: InvWalkEnds, Rules: rules, Universe: l.Universe, Prefix: l.Prefix, Approach: l.Approach, Loop: l.Loop, Detail: l.Detail}
	out, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return append(out, '\n')
}

// ParseLasso reads a lasso file: the lasso and the rule set it names. A
// file of another kind, with unknown fields, or with a step outside the
// universe's transitions is refused.
func ParseLasso(data []byte) (*WalkLasso, string, error) {
	var f lassoFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, "", fmt.Errorf("walk lasso: %w", err)
	}
	if f.Kind != KindWalkLiveness || f.Invariant != InvWalkEnds {
		return nil, "", fmt.Errorf("walk lasso: kind %q invariant %q, want %q and %q", f.Kind, f.Invariant, KindWalkLiveness, InvWalkEnds)
	}
	if err := f.Universe.Validate(); err != nil {
		return nil, "", fmt.Errorf("walk lasso: universe: %w", err)
	}
	for _, p := range []struct {
		name string
		ts   []int
	}{{"prefix", f.Prefix}, {"approach", f.Approach}, {"loop", f.Loop}} {
		for i, t := range p.ts {
			if t < 0 || t >= nTransitions {
				return nil, "", fmt.Errorf("walk lasso: %s step %d: transition %d is not one of the universe's %d", p.name, i+1, t, nTransitions)
			}
		}
	}
	if len(f.Loop) == 0 {
		return nil, "", fmt.Errorf("walk lasso: the loop is empty")
	}
	return &WalkLasso{Universe: f.Universe, Prefix: f.Prefix, Approach: f.Approach, Loop: f.Loop, Detail: f.Detail}, f.Rules, nil
}
