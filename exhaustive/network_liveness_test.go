package exhaustive

import (
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// noSuppression re-publishes whenever there is anything to publish: the
// rule that an identical canonical result is not re-published is gone.
func noSuppression() *model.Rules {
	r := model.Proposed().Clone()
	r.Slots.Republish = func(_, published, _ []model.Entry) bool { return len(published) > 0 }
	r.Name = "no-suppression"
	return r
}

func liveness(t *testing.T, rules *model.Rules, workers int) *LivenessResult {
	t.Helper()
	res, err := Liveness(LivenessConfig{Universe: NetworkPairUniverse(), Rules: rules, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The spec's and the proposed rules sustain no publication cycle, and the
// check met its premise: messages in flight beside triggered publications,
// and cycles (a duplicate that changes nothing) that fairness had to judge.
func TestLivenessSpecAndProposedHold(t *testing.T) {
	for _, rules := range []*model.Rules{model.Spec(), model.Proposed()} {
		res := liveness(t, rules, 0)
		if res.Status != StatusOK || res.Cycles.Violations != 0 || res.Witness != nil {
			t.Fatalf("%s: status %v, %d fair cycles with a publication, witness %v", rules.Name, res.Status, res.Cycles.Violations, res.Witness)
		}
		if res.Roots < 2 || res.States <= res.Roots || res.Premise == 0 || res.Publications == 0 || res.Cycles.Cyclic == 0 || res.Cycles.Unfair == 0 {
			t.Fatalf("%s: vacuous: %+v", rules.Name, *res)
		}
		if res.Cycles.Cyclic != res.Cycles.Unfair+res.Cycles.Fair {
			t.Fatalf("%s: components %d != unfair %d + fair %d", rules.Name, res.Cycles.Cyclic, res.Cycles.Unfair, res.Cycles.Fair)
		}
	}
}

// Without the suppression of an identical re-publish, two devices publish
// to each other forever: the check finds a fair lasso, and the lasso
// replays.
func TestLivenessNoSuppressionLasso(t *testing.T) {
	res := liveness(t, noSuppression(), 0)
	if res.Status != StatusViolation || res.Cycles.Violations == 0 || res.Witness == nil {
		t.Fatalf("mutant not caught: %+v", *res)
	}
	// Fairness excused some cycles: a publication repeated while its
	// message stays in flight undelivered.
	if res.Cycles.UnfairAccepting == 0 {
		t.Fatalf("no unfair cycle with a publication: fairness was never exercised (%+v)", *res)
	}
	wit := res.Witness
	if len(wit.Loop) == 0 || !slices.ContainsFunc(wit.Loop, func(a Action) bool { return a.Kind == KindPublish }) {
		t.Fatalf("loop without publication:\n%s", wit)
	}
	for _, a := range append(slices.Clone(wit.Approach), wit.Loop...) {
		switch a.Kind {
		case KindDeliver, KindDuplicate, KindDrop, KindPublish:
		default:
			t.Fatalf("user action %s after the prefix:\n%s", a, wit)
		}
	}
	if err := ReplayLiveness(NetworkPairUniverse(), noSuppression(), wit); err != nil {
		t.Fatalf("replay: %v\n%s", err, wit)
	}
	// The same lasso under the proposed rules: some publication of the
	// loop is no longer triggered.
	if err := ReplayLiveness(NetworkPairUniverse(), model.Proposed(), wit); err == nil || !strings.Contains(err.Error(), "not a system step") {
		t.Fatalf("replay under the proposed rules: %v", err)
	}
}

// Replay rejects a loop that does not close, one without a publication,
// and one that leaves a message in flight throughout undelivered.
func TestReplayLivenessRejects(t *testing.T) {
	wit := liveness(t, noSuppression(), 0).Witness
	u, rules := NetworkPairUniverse(), noSuppression()
	open := *wit
	open.Loop = wit.Loop[:len(wit.Loop)-1]
	if err := ReplayLiveness(u, rules, &open); err == nil || !strings.Contains(err.Error(), "does not return") {
		t.Fatalf("open loop: %v", err)
	}
	empty := *wit
	empty.Loop = nil
	if err := ReplayLiveness(u, rules, &empty); err == nil {
		t.Fatal("empty loop accepted")
	}
	// d0 publishes and d1 duplicates the message forever (once d1 has
	// received it, neither changes anything): the loop closes and
	// publishes, but the message is in flight throughout.
	unfair := LivenessWitness{Property: InvNoRepublishCycle, Universe: u.Name, Rules: rules.Name, Depth: u.Depth,
		Prefix:   []Action{{Kind: KindMarkUnread, Device: 0, Ctx: "c0"}},
		Approach: []Action{{Kind: KindPublish, Device: 0}, {Kind: KindDuplicate, From: 0, Device: 1, Msg: 1}},
		Loop:     []Action{{Kind: KindPublish, Device: 0}, {Kind: KindDuplicate, From: 0, Device: 1, Msg: 1}}}
	if err := ReplayLiveness(u, rules, &unfair); err == nil || !strings.Contains(err.Error(), "unfair") {
		t.Fatalf("unfair loop: %v", err)
	}
	quiet := unfair
	quiet.Loop = []Action{{Kind: KindDuplicate, From: 0, Device: 1, Msg: 1}}
	if err := ReplayLiveness(u, rules, &quiet); err == nil || !strings.Contains(err.Error(), "no publication") {
		t.Fatalf("a loop without publication: %v", err)
	}
}

// The result and the witness do not depend on the worker count.
func TestLivenessWorkers(t *testing.T) {
	a, b := liveness(t, noSuppression(), 1), liveness(t, noSuppression(), 2)
	if a.Witness.String() != b.Witness.String() {
		t.Fatalf("witness differs:\n%s\n%s", a.Witness, b.Witness)
	}
	a.Witness, b.Witness = nil, nil
	if *a != *b {
		t.Fatalf("results differ:\n%+v\n%+v", *a, *b)
	}
}

// A rule set that never triggers a publication leaves nothing to test:
// the check says so instead of passing.
func TestLivenessVacuous(t *testing.T) {
	r := model.Proposed().Clone()
	r.Slots.Republish = func(_, _, _ []model.Entry) bool { return false }
	_, err := Liveness(LivenessConfig{Universe: NetworkPairUniverse(), Rules: r})
	if err == nil || !strings.Contains(err.Error(), "premise never met") {
		t.Fatalf("got %v", err)
	}
	if _, err := Liveness(LivenessConfig{Universe: Reference()}); err == nil {
		t.Fatal("a universe without a network accepted")
	}
	if res, err := Liveness(LivenessConfig{Universe: NetworkPairUniverse(), Property: "convergence"}); err == nil || res != nil {
		t.Fatalf("an unknown property ran: %v, %v", res, err)
	}
}

func BenchmarkLivenessPair(b *testing.B) {
	for b.Loop() {
		res, err := Liveness(LivenessConfig{Universe: NetworkPairUniverse(), Workers: 1})
		if err != nil || res.Status != StatusOK {
			b.Fatalf("%v %v", res, err)
		}
	}
}

// BenchmarkLiveness times the liveness check on the pair universe under
// the proposed rules, on one worker.
func BenchmarkLiveness(b *testing.B) {
	for range b.N {
		res, err := Liveness(LivenessConfig{Universe: NetworkPairUniverse(), Rules: model.Proposed(), Workers: 1})
		if err != nil || res.Status != StatusOK {
			b.Fatalf("%v %+v", err, res)
		}
	}
}
