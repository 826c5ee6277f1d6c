package props

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaysim"
	"github.com/nip-rs/harness/witnessfile"
)

// KindLoadDiff is the witness kind of a load scenario that tells two rule
// sets apart (DiffSearch).
const KindLoadDiff = "load-diff"

// InvariantDiff is what a difference witness shows: not a violation but
// something a user sees otherwise under the two rule sets. It is the
// invariant the override layer's difference witnesses name too.
const InvariantDiff = "user-visible-difference"

// DiffFile is a load difference witness as its file holds it: the two
// rule sets (rules and other), where the search drew the scenario (seed,
// case, profile), the scenario, and what a user sees otherwise after it.
type DiffFile struct {
	Kind        string   `json:"kind"`
	Rules       string   `json:"rules"`
	Other       string   `json:"other"`
	Invariant   string   `json:"invariant"`
	Detail      string   `json:"detail"`
	Seed        uint64   `json:"seed"`
	Case        int      `json:"case"`
	Config      Config   `json:"config"`
	Steps       []Step   `json:"steps"`
	Differences []string `json:"differences"`
}

// WitnessJSON is the difference found as a witness file; nil when none
// was found.
func (r *DiffResult) WitnessJSON() []byte {
	if r.Found == nil || len(r.Found.Differences) == 0 {
		return nil
	}
	f := DiffFile{Kind: KindLoadDiff, Rules: r.A, Other: r.B, Invariant: InvariantDiff, Detail: r.Found.Differences[0],
		Seed: r.Seed, Case: r.Found.Case, Config: r.Found.Config, Steps: r.Found.Steps, Differences: r.Found.Differences}
	b, _ := json.MarshalIndent(f, "", "  ") // plain data always marshals
	return append(b, '\n')
}

// ParseDiffFile reads a load difference witness strictly: an unknown
// member, trailing data, another kind or invariant, no recorded
// difference, two rule sets of one name, or a scenario no search draws
// (ValidateWitness; the passes of its relay profile) is an error, and
// nothing runs.
func ParseDiffFile(data []byte) (DiffFile, error) {
	var f DiffFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return DiffFile{}, fmt.Errorf("load difference witness: %v", err)
	}
	if dec.More() {
		return DiffFile{}, fmt.Errorf("load difference witness: trailing data after the witness object")
	}
	switch {
	case f.Kind != KindLoadDiff:
		return DiffFile{}, fmt.Errorf("load difference witness: kind %q, want %s", f.Kind, KindLoadDiff)
	case f.Invariant != InvariantDiff || len(f.Differences) == 0:
		return DiffFile{}, fmt.Errorf("load difference witness: invariant %q with %d differences: want %s and at least one", f.Invariant, len(f.Differences), InvariantDiff)
	case f.Rules == "" || f.Other == "" || f.Rules == f.Other:
		return DiffFile{}, fmt.Errorf("load difference witness: rules %q and other %q: want two different rule sets", f.Rules, f.Other)
	case f.Case < 0:
		return DiffFile{}, fmt.Errorf("load difference witness: case %d is negative", f.Case)
	case len(f.Steps) == 0:
		return DiffFile{}, fmt.Errorf("load difference witness: no steps")
	}
	if err := ValidateWitness(Witness{Check: CheckSoundness, Config: f.Config, Steps: f.Steps}); err != nil {
		return DiffFile{}, fmt.Errorf("load difference witness: %v", err)
	}
	// DrawConfig gives two passes exactly over a relay that splits
	// replacements and settles them before a pass; any other count is a
	// client the search never runs.
	p, _ := relaysim.ByName(f.Config.Profile, MinCap) // ValidateWitness knows the profile
	if want := map[bool]int{true: 2, false: 0}[p.SettleBeforePass]; f.Config.Passes != want {
		return DiffFile{}, fmt.Errorf("load difference witness: config.passes %d: want %d over profile %s", f.Config.Passes, want, f.Config.Profile)
	}
	return f, nil
}

// DiffReplay is what replaying a load difference witness found.
type DiffReplay struct {
	// Differences is what a user sees otherwise after the scenario now.
	Differences []string
	// Reproduced: they are exactly the recorded ones.
	Reproduced bool
	// Text is the scenario, each side's log and the differences.
	Text string
}

// ReplayDiff replays a load difference witness (ParseDiffFile) under the
// two rule sets it names, resolved by rules, and compares what a user sees
// now with the recorded differences.
func ReplayDiff(data []byte, rules func(name string) (*model.Rules, error)) (*DiffReplay, error) {
	f, err := ParseDiffFile(data)
	if err != nil {
		return nil, err
	}
	a, err := rules(f.Rules)
	if err != nil {
		return nil, err
	}
	b, err := rules(f.Other)
	if err != nil {
		return nil, err
	}
	got, logA, logB, err := Differ(f.Config, a, b, f.Steps)
	if err != nil {
		return nil, fmt.Errorf("load difference witness: %v", err)
	}
	var t strings.Builder
	fmt.Fprintf(&t, "load scenario, %s vs %s, %s (seed %d, case %d)\n", f.Rules, f.Other, f.Config, f.Seed, f.Case)
	for i, s := range f.Steps {
		fmt.Fprintf(&t, "step %d: %s\n", i+1, s)
	}
	for _, side := range []struct {
		name string
		log  []string
	}{{f.Rules, logA}, {f.Other, logB}} {
		fmt.Fprintf(&t, "under %s:\n", side.name)
		for _, l := range side.log {
			fmt.Fprintf(&t, "  %s\n", l)
		}
	}
	if len(got) == 0 {
		fmt.Fprintf(&t, "then: a user sees the same under %s and %s\n", f.Rules, f.Other)
	} else {
		t.WriteString("then:\n")
	}
	for _, d := range got {
		fmt.Fprintf(&t, "  %s\n", d)
	}
	return &DiffReplay{Differences: got, Reproduced: slices.Equal(got, f.Differences), Text: t.String()}, nil
}

// Replayed is the replay in the form every kind of witness replays to:
// reproduced only when the differences are the recorded ones, the first
// difference found being its finding.
func (r *DiffReplay) Replayed() *witnessfile.Replayed {
	out := &witnessfile.Replayed{Reproduced: r.Reproduced, Text: r.Text}
	if len(r.Differences) > 0 {
		out.Found = []string{InvariantDiff + ": " + r.Differences[0]}
		out.Detail = r.Differences[0]
	}
	return out
}
