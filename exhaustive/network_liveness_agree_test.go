package exhaustive

import (
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// frontierTrigger is the production rules with a re-publish trigger that
// compares frontier entries only: an override change alone is never
// published.
func frontierTrigger() *model.Rules {
	r := model.Proposed()
	base := model.Proposed()
	fr := func(es []model.Entry) []model.Entry {
		return slices.DeleteFunc(slices.Clone(es), func(e model.Entry) bool { k, _ := model.Spec().GroupKey(e.Key); return k != model.KeyFrontier })
	}
	r.Slots.Republish = func(c, p, l []model.Entry) bool { return base.Slots.Republish(fr(c), fr(p), fr(l)) }
	r.Name = "frontier-trigger"
	return r
}

// Under the production rules every fair path of network-pair agrees for
// good, under either tie policy; the graph's figures are pinned, and they
// show the check was not vacuous: thousands of nodes where the devices do
// not yet agree, hundreds where everything has settled, and tens of
// thousands of cycles, every one of them unfair (a message duplicated and
// never delivered).
func TestAgreementHoldsOnNetworkPair(t *testing.T) {
	// The figures pinned: states, system and user steps, states apart,
	// settled, settled apart, cyclic components, fair ones, fair ones apart.
	for _, tc := range []struct {
		tie  model.TiePolicy
		want [9]int64
	}{
		{model.ClearWins, [9]int64{47617, 138786, 30612, 16220, 780, 0, 30107, 0, 0}},
		{model.SetWins, [9]int64{47415, 138242, 30596, 15752, 744, 0, 29929, 0, 0}},
	} {
		res, err := Agreement(LivenessConfig{Universe: NetworkPairUniverse(), Rules: model.Proposed().WithTie(tc.tie)})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Cycles
		got := [9]int64{int64(res.States), res.Edges, res.UserEdges, int64(res.Pending), int64(c.Stuck), int64(c.StuckViolations),
			int64(c.Cyclic), int64(c.Fair), int64(c.Violations)}
		if res.Status != StatusOK || got != tc.want {
			t.Errorf("tie %s: %s, %v\nwant %v", tc.tie, res.Status, got, tc.want)
		}
	}
}

// A trigger blind to override entries leaves a mark-unread unpublished:
// the devices settle apart after one action. The witness replays, and its
// file reproduces through the liveness replay.
func TestAgreementCatchesABlindTrigger(t *testing.T) {
	res, err := Agreement(LivenessConfig{Universe: NetworkPairUniverse(), Rules: frontierTrigger()})
	if err != nil {
		t.Fatal(err)
	}
	w := res.Witness
	if res.Status != StatusViolation || w == nil || len(w.Prefix) != 1 || len(w.Loop) != 0 || res.Cycles.StuckViolations == 0 ||
		!strings.Contains(w.Detail, "settled apart: c0 is live on d0 and dead on d1") {
		t.Fatalf("%s: %+v", res.Status, w)
	}
	if err := ReplayLiveness(NetworkPairUniverse(), frontierTrigger(), w); err != nil {
		t.Fatal(err)
	}
	if err := ReplayLiveness(NetworkPairUniverse(), model.Proposed(), w); err == nil {
		t.Error("the witness holds under the production rules, which publish the mark-unread")
	}
	cat := NewCatalog()
	cat.AddRules("frontier-trigger", frontierTrigger)
	pw, err := witnessfile.Parse(w.JSON(model.ClearWins))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReplayLivenessFile(cat, pw)
	if err != nil || !r.Reproduced || r.Detail != w.Detail {
		t.Fatalf("file replay: %+v, %v", r, err)
	}
	// A prefix that leaves the mark-unread published is no witness.
	dev, from := 0, 0
	w.Prefix = append(w.Prefix, Action{Kind: KindPublish, Device: dev}, Action{Kind: KindDeliver, Device: 1, From: from, Msg: 1})
	if err := ReplayLiveness(NetworkPairUniverse(), frontierTrigger(), w); err == nil {
		t.Error("a prefix whose last step is not enabled replayed")
	}
}

// A fair cycle that never agrees is a lasso: device 1 ignores every
// incoming register while device 0 re-publishes its override for ever.
func TestAgreementFairCycleWitness(t *testing.T) {
	u := NetworkPairUniverse()
	u.Devices[0].Rules = func(run *model.Rules) *model.Rules {
		r := *run
		r.Slots.Republish = func(_, published, _ []model.Entry) bool { return len(published) > 0 }
		return &r
	}
	u.Devices[1].Rules = func(run *model.Rules) *model.Rules {
		r := *run
		r.Join = func(a, _ model.Reg) model.Reg { return a }
		return &r
	}
	res, err := Agreement(LivenessConfig{Universe: u, Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	w := res.Witness
	if res.Status != StatusViolation || w == nil || len(w.Loop) == 0 || res.Cycles.Violations == 0 {
		t.Fatalf("%s: %+v %+v", res.Status, res, w)
	}
	if err := ReplayLiveness(u, nil, w); err != nil {
		t.Fatalf("%v\n%s", err, w)
	}
	w.Loop = w.Loop[:len(w.Loop)-1]
	if err := ReplayLiveness(u, nil, w); err == nil {
		t.Error("a loop missing its last step replayed")
	}
	// Re-publishing d0's message for ever while it is in flight closes a
	// loop where the devices stay apart, but its delivery is enabled
	// throughout and never taken.
	dup := &LivenessWitness{Property: InvOverrideReaches, Universe: u.Name, Rules: w.Rules, Depth: 2,
		Prefix: []Action{{Kind: KindMarkUnread, Device: 0, Ctx: "c0"}, {Kind: KindPublish, Device: 0}},
		Loop:   []Action{{Kind: KindPublish, Device: 0}}}
	if err := ReplayLiveness(u, nil, dup); err == nil || !strings.Contains(err.Error(), "unfair") {
		t.Errorf("a loop that never delivers: %v", err)
	}
}

// No user action leaves nothing to agree on: the premise is never met,
// which is an error, not a pass; a state bound is unknown.
func TestAgreementBounds(t *testing.T) {
	if _, err := Agreement(LivenessConfig{Universe: NetworkPairUniverse(), Depth: -1}); err == nil {
		t.Error("a negative depth ran")
	}
	u := NetworkPairUniverse()
	u.Depth = 0
	if _, err := Agreement(LivenessConfig{Universe: u}); err == nil || !strings.Contains(err.Error(), "premise never met") {
		t.Errorf("no user action: %v, want the premise never met", err)
	}
	res, err := Agreement(LivenessConfig{Universe: NetworkPairUniverse(), MaxStates: 100})
	if err != nil || res.Status != StatusUnknown || res.BoundHit == "" {
		t.Errorf("100 states: %+v, %v", res, err)
	}
	if _, err := Agreement(LivenessConfig{Universe: Reference()}); err == nil {
		t.Error("ran on the reference universe, which has no network")
	}
}

// The cost of the eventual-agreement check on network-pair under the
// production rules (building the graph and judging its components).
func BenchmarkAgreementNetworkPair(b *testing.B) {
	for b.Loop() {
		res, err := Agreement(LivenessConfig{Universe: NetworkPairUniverse()})
		if err != nil || res.Status != StatusOK {
			b.Fatal(res, err)
		}
	}
}

// The cost of searching network-pair for an observation that is not
// reached (the whole bounded space, every state checked).
func BenchmarkObserveSettledDisagreement(b *testing.B) {
	o, _ := LookupObservation("settled-disagreement")
	for b.Loop() {
		res, err := Observe(ObserveConfig{Universe: NetworkPairUniverse(), Observation: o})
		if err != nil || res.Witness != nil {
			b.Fatal(res, err)
		}
	}
}
