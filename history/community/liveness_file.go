package community

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// KindLiveness is the witness kind of a community lasso.
const KindLiveness = "community-liveness"

// InvariantOf names property p's finding (the invariant a lasso breaks).
func InvariantOf(property string) string { return "eventually-" + property }

// lassoFile is a Lasso on disk.
type lassoFile struct {
	Kind      string   `json:"kind"`
	Invariant string   `json:"invariant"`
	Property  string   `json:"property"`
	Rules     string   `json:"rules"`
	Prefix    []Action `json:"prefix"`
	Approach  []Action `json:"approach"`
	Loop      []Action `json:"loop"`
	Detail    string   `json:"detail"`
}

// JSON is the lasso as a witness file (indented, one trailing newline).
func (l *Lasso) JSON() []byte {
	f := lassoFile{Kind: KindLiveness, Invariant: InvariantOf(l.Property), Property: l.Property, Rules: l.Rules,
		Prefix: l.Prefix, Approach: l.Approach, Loop: l.Loop, Detail: l.Detail}
	out, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return append(out, '\n')
}

// ParseLasso reads a lasso file and the property it names. A file of
// another kind, with unknown fields, of an unknown property, or naming an
// action its universe or the member does not have is refused.
func ParseLasso(data []byte) (*Lasso, *Property, error) {
	var f lassoFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrWitness, err)
	}
	p, ok := PropertyNamed(f.Property)
	switch {
	case f.Kind != KindLiveness:
		return nil, nil, fmt.Errorf("%w: kind %q, want %q", ErrWitness, f.Kind, KindLiveness)
	case !ok:
		return nil, nil, fmt.Errorf("%w: no liveness property %q", ErrWitness, f.Property)
	case f.Invariant != InvariantOf(p.Name):
		return nil, nil, fmt.Errorf("%w: invariant %q, want %q", ErrWitness, f.Invariant, InvariantOf(p.Name))
	case len(f.Loop) == 0:
		return nil, nil, fmt.Errorf("%w: the loop is empty", ErrWitness)
	}
	u := p.Universe()
	for i, a := range f.Prefix {
		if !slices.Contains(u.Actions, a) {
			return nil, nil, fmt.Errorf("%w: prefix step %d: %s is not an action of %s", ErrWitness, i+1, a, u.Name)
		}
	}
	for i, a := range append(slices.Clone(f.Approach), f.Loop...) {
		if !slices.Contains(p.System, a) {
			return nil, nil, fmt.Errorf("%w: step %d after the prefix: %s is not one of the member's own steps", ErrWitness, i+1, a)
		}
	}
	return &Lasso{Property: f.Property, Rules: f.Rules, Prefix: f.Prefix, Approach: f.Approach, Loop: f.Loop, Detail: f.Detail}, p, nil
}
