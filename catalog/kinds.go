package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/props"
	"github.com/nip-rs/harness/witnessfile"
)

// otherKinds are the witness kinds of checks that are not a universe's:
// the directed checks, the full-state load, the three lockstep
// differences, the liveness lasso and the observation trace.
var otherKinds = []string{witnessfile.KindDirected, witnessfile.KindLoad, exhaustive.KindDiff, exhaustive.KindLiveness, exhaustive.KindObservation, props.KindLoadDiff, history.KindWalkDiff}

// ReplayKinds lists every kind Replay knows, sorted.
func ReplayKinds() []string {
	ks := append([]string{witnessfile.KindExplore, history.KindHistory, community.KindCommunity}, otherKinds...)
	slices.Sort(ks)
	return ks
}

// IsDiffKind says whether kind is a lockstep difference of two rule sets
// (override, load or walk): its replay runs the two rule sets the file
// names, not one given to it.
func IsDiffKind(kind string) bool {
	return kind == exhaustive.KindDiff || kind == props.KindLoadDiff || kind == history.KindWalkDiff
}

// Replay replays any witness: a universe's through ReplayNamed, any other
// through the package whose check wrote it, under the Rules and Tie the
// witness carries (the file's, or others a caller put there). An unknown
// kind is a bad witness naming the kinds there are.
func (c *Catalog) Replay(w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	if c.Writes(w.Kind) {
		return c.ReplayNamed(w)
	}
	switch w.Kind {
	case witnessfile.KindDirected:
		return directed.Replay(w, c.ex.Rules)
	case witnessfile.KindLoad:
		return c.replayLoad(w)
	case exhaustive.KindDiff:
		return exhaustive.ReplayDiff(c.ex, w, func(name string, tie model.TiePolicy) (*model.Rules, error) {
			return amendments.RulesUnder(c.ex, name, tie)
		})
	case exhaustive.KindLiveness:
		return exhaustive.ReplayLivenessFile(c.ex, w)
	case exhaustive.KindObservation:
		return exhaustive.ReplayObservationFile(c.ex, w)
	case props.KindLoadDiff:
		r, err := props.ReplayDiff(w.Raw, c.ex.RuleSet)
		if err != nil {
			return nil, witnessfile.Bad("%v", err)
		}
		return r.Replayed(), nil
	case history.KindWalkDiff:
		return history.ReplayDiff(w, WalkRules, WalkVariant)
	}
	return nil, witnessfile.Bad("unknown kind %q (want one of %s)", w.Kind, strings.Join(ReplayKinds(), ", "))
}

// WalkRules resolves a rule set of the walk by name: an amendment's walk
// layer, or one of the walk's own (spec, healing, proposed, a history
// mutant).
func WalkRules(name string) (*history.Rules, bool) {
	if s, ok := AmendmentSet(name); ok {
		return s.History, true
	}
	return mutants.HistoryRuleSet(name)
}

// WalkVariant is the walk universe variant of that name.
func WalkVariant(name string) (history.UniverseConfig, bool) {
	for _, v := range history.Variants() {
		if v.Name == name {
			return v.U, true
		}
	}
	return history.UniverseConfig{}, false
}

// replayLoad re-runs a full-state load witness (props' format) under the
// rule set the witness names. Every field is checked before anything
// runs: a cap under the floor would replay as a false counterexample, a
// huge foreign write as minutes of work.
func (c *Catalog) replayLoad(w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	var lw props.Witness
	dec := json.NewDecoder(bytes.NewReader(w.Raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&lw); err != nil {
		return nil, witnessfile.Bad("load witness: %v", err)
	}
	if dec.More() {
		return nil, witnessfile.Bad("load witness: trailing data after the witness object")
	}
	if err := props.ValidateWitness(lw); err != nil {
		return nil, witnessfile.Bad("load witness: %v", err)
	}
	if w.Invariant != props.CheckSoundness && w.Invariant != props.CheckQuiescent && w.Invariant != props.CheckTermination && w.Invariant != "stuck" {
		return nil, witnessfile.Bad("load witness: unknown invariant %q (want soundness, quiescent, termination or stuck)", w.Invariant)
	}
	rules, err := c.ex.Rules(w.Rules)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	if w.Tie != "" {
		t, err := model.ParseTiePolicy(w.Tie)
		if err != nil {
			return nil, witnessfile.Bad("%v", err)
		}
		rules = rules.WithTie(t)
	}
	v, log := props.Replay(lw, rules)
	if v != nil && v.Check == "config" {
		return nil, witnessfile.Bad("load witness: %s", v.Detail)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "witness %s: load check %s, rules %s, %s\n", w.Invariant, lw.Check, w.Rules, lw.Config)
	for _, l := range log {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	res := &witnessfile.Replayed{}
	if v != nil {
		res.Found = []string{v.Check + ": " + v.Detail}
		res.Reproduced = v.Check == w.Invariant
		if res.Reproduced {
			res.Detail = v.Detail
		}
		fmt.Fprintf(&b, "violation %s: %s\n", v.Check, v.Detail)
	} else {
		fmt.Fprintf(&b, "(%s holds along this scenario)\n", w.Invariant)
	}
	res.Text = b.String()
	return res, nil
}
