package exhaustive

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// KindLiveness is the witness kind of a liveness witness
// (LivenessWitness), either property: its file holds the prefix, the
// approach and the loop apart, so the loop's first state is where the
// approach ends, and its invariant names the property.
const KindLiveness = "liveness"

// InvNoRepublishCycle is what a liveness lasso violates: a fair cycle of
// system steps with a triggered publication and no user action.
const InvNoRepublishCycle = "no-republish-cycle"

// maxLoopSteps bounds the approach and the loop of a lasso file: a loop
// walks one strongly connected component of a product graph of at most
// DefaultLivenessStates nodes, but the lassos of the modelled universes are
// a few dozen steps; a file past this is not one the check wrote.
const maxLoopSteps = 4096

// livenessFile is a liveness witness as its file holds it.
type livenessFile struct {
	Kind      string               `json:"kind"`
	Universe  string               `json:"universe"`
	Depth     int                  `json:"depth"`
	Tie       string               `json:"tie"`
	Rules     string               `json:"rules"`
	Invariant string               `json:"invariant"`
	Detail    string               `json:"detail"`
	Prefix    []witnessfile.Action `json:"prefix"`
	Approach  []witnessfile.Action `json:"approach"`
	Loop      []witnessfile.Action `json:"loop"`
}

// parts are the file's three walks beside the witness's.
func (f *livenessFile) parts(l *LivenessWitness) []struct {
	file *[]witnessfile.Action
	as   *[]Action
} {
	return []struct {
		file *[]witnessfile.Action
		as   *[]Action
	}{{&f.Prefix, &l.Prefix}, {&f.Approach, &l.Approach}, {&f.Loop, &l.Loop}}
}

// JSON is the witness as a witness file, tie the policy its rules decided.
func (l *LivenessWitness) JSON(tie model.TiePolicy) []byte {
	f := livenessFile{Kind: KindLiveness, Universe: l.Universe, Depth: l.Depth, Tie: tie.String(), Rules: l.Rules,
		Invariant: l.Property, Detail: l.Detail}
	for _, p := range f.parts(l) {
		*p.file = []witnessfile.Action{}
		for _, a := range *p.as {
			*p.file = append(*p.file, a.toFile())
		}
	}
	b, _ := json.MarshalIndent(f, "", "  ") // plain data always marshals
	return append(b, '\n')
}

// decodeStrict decodes one witness object of raw into f, refusing unknown
// members and trailing data with ErrBad (what names the witness in the
// error).
func decodeStrict(raw []byte, f any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(f); err != nil {
		return witnessfile.Bad("%s: %v", what, err)
	}
	if dec.More() {
		return witnessfile.Bad("%s: trailing data after the witness object", what)
	}
	return nil
}

// fileActions decodes a witness file's steps; what names the witness in
// the error.
func fileActions(in []witnessfile.Action, what string) ([]Action, error) {
	var out []Action
	for k, j := range in {
		a, err := fromFile(j)
		if err != nil {
			return nil, witnessfile.Bad("%sstep %d: %v", what, k+1, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// fileRules is the catalogue's rule set a witness file names under the
// tie it names, both as the parsed witness holds them (-rules and -tie of
// a replay replace them there); an unknown one is refused with ErrBad.
func fileRules(cat *Catalog, w *witnessfile.Witness) (*model.Rules, error) {
	tie, err := model.ParseTiePolicy(w.Tie)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	rules, err := cat.Rules(w.Rules)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	return rules.WithTie(tie), nil
}

// check refuses a file the check of its property could not have
// written: an unknown property, a depth out of range, a lasso's prefix
// beyond its depth bound (an agreement prefix holds system steps too, and
// no approach), or walks past maxLoopSteps.
func (f *livenessFile) check() error {
	switch {
	case f.Invariant == InvOverrideReaches && f.Depth >= 0 && f.Depth <= witnessfile.MaxDepth && len(f.Prefix) <= maxLoopSteps && len(f.Loop) <= maxLoopSteps:
		if len(f.Approach) > 0 {
			return witnessfile.Bad("agreement witness: an approach of %d steps (its prefix holds every step)", len(f.Approach))
		}
		return nil
	case f.Invariant != InvNoRepublishCycle:
		return witnessfile.Bad("liveness witness: invariant %q, want %s", f.Invariant, InvNoRepublishCycle)
	case f.Depth < 0 || f.Depth > witnessfile.MaxDepth || len(f.Prefix) > f.Depth:
		return witnessfile.Bad("liveness witness: a prefix of %d actions within depth %d (at most %d)", len(f.Prefix), f.Depth, witnessfile.MaxDepth)
	case len(f.Approach) > maxLoopSteps || len(f.Loop) > maxLoopSteps:
		return witnessfile.Bad("liveness witness: %d approach and %d loop steps, at most %d each", len(f.Approach), len(f.Loop), maxLoopSteps)
	}
	return nil
}

// LivenessUniverses are the universes built for the liveness check, which
// the safety suite does not explore (their states are the product graph's
// roots only).
func LivenessUniverses() []Universe {
	return []Universe{NetworkPairUniverse(), HierarchyPairUniverse()}
}

// LivenessUniverse resolves a universe the liveness check can run on: one
// of LivenessUniverses, else a network universe of the catalogue.
func LivenessUniverse(cat *Catalog, name string) (Universe, error) {
	for _, u := range LivenessUniverses() {
		if u.Name == name {
			return u, nil
		}
	}
	u, err := cat.Universe(name)
	if err != nil {
		var names []string
		for _, u := range LivenessUniverses() {
			names = append(names, u.Name)
		}
		return Universe{}, fmt.Errorf("%v (the liveness check also knows %s)", err, strings.Join(names, ", "))
	}
	if u.Network == nil {
		return Universe{}, fmt.Errorf("universe %q has no network: the liveness check needs one", name)
	}
	return u, nil
}

// ReplayLivenessFile replays a liveness witness file: its universe
// (LivenessUniverse) and rule set (the catalogue's, under the file's tie;
// -rules and -tie of a replay are given through the parsed witness) are
// resolved, and ReplayLiveness checks it as its property says. A file the
// check could not have written is refused with ErrBad; a witness that does
// not hold is not reproduced.
func ReplayLivenessFile(cat *Catalog, w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	var f livenessFile
	if err := decodeStrict(w.Raw, &f, "liveness witness"); err != nil {
		return nil, err
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	u, err := LivenessUniverse(cat, f.Universe)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	rules, err := fileRules(cat, w)
	if err != nil {
		return nil, err
	}
	wit := &LivenessWitness{Property: f.Invariant, Universe: u.Name, Rules: w.Rules, Depth: f.Depth}
	for _, p := range f.parts(wit) {
		if *p.as, err = fileActions(*p.file, livenessChecks[f.Invariant]+" witness: "); err != nil {
			return nil, err
		}
	}
	detail, err := replayWitness(u, rules, wit)
	// A witness that does not hold is shown as its file states it.
	wit.Detail = cmp.Or(detail, f.Detail)
	res := &witnessfile.Replayed{Text: wit.String()}
	if err != nil {
		res.Text += "the " + witnessNoun[f.Invariant] + " does not hold: " + err.Error() + "\n"
		return res, nil
	}
	res.Reproduced, res.Detail = true, wit.Detail
	res.Found = []string{f.Invariant + ": " + wit.Detail}
	return res, nil
}

// witnessNoun is what a replay calls a witness of each property.
var witnessNoun = map[string]string{InvNoRepublishCycle: "lasso", InvOverrideReaches: "witness"}

// hierPairThread is the hierarchy pair's thread, a child of hierChannel.
var hierPairThread = hierThread

// hierPairParent resolves the thread to the channel.
func hierPairParent(raw string) (string, bool) {
	if raw == hierPairThread {
		return hierChannel, true
	}
	return "", false
}

// HierarchyPairUniverse is the smallest universe where eviction bears on
// the re-publish trigger: two upgraded devices, a channel and a thread
// under it, values 10 and 20, split publications. A device holding the
// thread at 10 that reads the channel to 20 holds a dominated entry: the
// split evicts it, and the trigger must compare what is published, not
// the candidate before eviction (Eviction; Live Subscription and
// Convergence).
func HierarchyPairUniverse() Universe {
	return Universe{
		Name:     "hierarchy-pair",
		Doc:      "in-flight network over a channel and a thread under it: 2 upgraded devices, values 10/20, 1 message per channel, split publications",
		Devices:  []DeviceSpec{{ClientID: "d0", Parent: hierPairParent}, {ClientID: "d1", Parent: hierPairParent}},
		Contexts: slices.Clone([]string{hierChannel, hierPairThread}),
		Values:   []uint32{10, 20},
		Depth:    4,
		Network: &Network{Capacity: 1, Budget: &model.Budget{PlaintextBytes: 4096, MaxCoordinates: 2},
			FrontierOnly: []string{hierChannel}, Rounds: 4},
	}
}
