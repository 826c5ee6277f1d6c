package gen

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/model"
)

// Failure is one vector a rule set decides otherwise.
type Failure struct {
	ID       string
	Expected string
	Got      string
}

func (f Failure) String() string {
	return fmt.Sprintf("%s: expected %s, got %s", f.ID, f.Expected, f.Got)
}

// KindByName finds a kind.
func KindByName(name string) (Kind, bool) {
	for _, k := range Kinds() {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Check replays every vector of f under the core's rules (the history
// walk by its production rules) and lists those whose output differs from
// the expected one. An error means the file itself is unusable.
func Check(rules *model.Rules, f File) ([]Failure, error) {
	return CheckWith(RuleSet{Model: rules, History: history.Spec()}, f)
}

// CheckWith is Check under both rule sets.
func CheckWith(rs RuleSet, f File) ([]Failure, error) {
	k, ok := KindByName(f.Kind)
	if !ok {
		return nil, fmt.Errorf("unknown vector kind %q", f.Kind)
	}
	var fails []Failure
	for _, v := range f.Vectors {
		raw, err := computeRaw(k, rs, v.Input)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", v.ID, err)
		}
		got, err := compact(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", v.ID, err)
		}
		want, err := compact(v.Expected)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", v.ID, err)
		}
		if !bytes.Equal(got, want) {
			fails = append(fails, Failure{ID: v.ID, Expected: string(want), Got: string(got)})
		}
	}
	return fails, nil
}

// compact re-encodes raw JSON the way marshal does, so a stored output
// compares byte for byte with a computed one.
func compact(raw json.RawMessage) (json.RawMessage, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return marshal(v)
}
