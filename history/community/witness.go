package community

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// KindCommunity is the witness kind of this package's universes.
const KindCommunity = "community"

// ErrWitness marks a witness file this package refuses.
var ErrWitness = errors.New("community witness")

// Witness is a violating action sequence of one universe under a named
// rule set. Text is its rendering (not stored in the file).
type Witness struct {
	Kind      string   `json:"kind"`
	Universe  string   `json:"universe"`
	Rules     string   `json:"rules"`
	Invariant string   `json:"invariant"`
	Detail    string   `json:"detail"`
	Actions   []Action `json:"actions"`
	Text      string   `json:"-"`
}

// JSON is the witness file, newline terminated.
func (w *Witness) JSON() []byte {
	data, _ := json.MarshalIndent(w, "", "  ")
	return append(data, '\n')
}

// Universes are this package's universes at their default depths, in the
// order the suite lists them.
func Universes() []*Universe {
	return []*Universe{
		EpochsUniverse(6), LiveUniverse(5), SideUniverse(6), SchedUniverse(6),
		NegUniverse(), HonestUniverse(), PumpUniverse(7),
	}
}

// UniverseNamed is one of Universes by name.
func UniverseNamed(name string) (*Universe, bool) {
	i := slices.IndexFunc(Universes(), func(u *Universe) bool { return u.Name == name })
	if i < 0 {
		return nil, false
	}
	return Universes()[i], true
}

// Parse reads a witness file. It refuses anything that is not a witness of
// a known universe within its depth bound, with known actions.
func Parse(data []byte) (*Witness, error) {
	var w Witness
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrWitness, err)
	}
	if w.Kind != KindCommunity {
		return nil, fmt.Errorf("%w: kind %q", ErrWitness, w.Kind)
	}
	u, ok := UniverseNamed(w.Universe)
	if !ok {
		return nil, fmt.Errorf("%w: unknown universe %q", ErrWitness, w.Universe)
	}
	if len(w.Actions) == 0 || len(w.Actions) > u.Depth {
		return nil, fmt.Errorf("%w: %d actions: want 1..%d", ErrWitness, len(w.Actions), u.Depth)
	}
	for i, a := range w.Actions {
		if !slices.Contains(u.Actions, a) {
			return nil, fmt.Errorf("%w: action %d (%s) is not one of %s's", ErrWitness, i+1, a, u.Name)
		}
	}
	return &w, nil
}

// Outcome is a replay's outcome: whether the witness's invariant fails at
// its last step again, and the rendering.
type Outcome struct {
	Reproduced bool
	Found      []Violation
	Text       string
}

// Replay re-runs a parsed witness under r.
func Replay(w *Witness, r *Rules) (*Outcome, error) {
	u, ok := UniverseNamed(w.Universe)
	if !ok {
		return nil, fmt.Errorf("%w: unknown universe %q", ErrWitness, w.Universe)
	}
	text, found, err := render(u, r, w)
	if err != nil {
		return nil, err
	}
	rep := &Outcome{Found: found, Text: text}
	for _, v := range found {
		if v.Invariant == w.Invariant {
			rep.Reproduced = true
		}
	}
	return rep, nil
}
