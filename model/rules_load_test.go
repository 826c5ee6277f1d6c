package model

import (
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

func init() {
	ruleWorkloads = append(ruleWorkloads, ruleWorkload{"full-state load", workloadLoad},
		ruleWorkload{"full-state load defences", workloadLoadDefences}, ruleWorkload{"full-state load, connection lost", workloadLoadLost})
	ruleWorkloads = append(ruleWorkloads, ruleWorkload{"full-state load, unproven relay", workloadLoadUnproven})
	rulePaths = append(rulePaths, rulePath{"full-state load, connection lost", workloadLoadLost, []string{"Rules.Load.Lost"}})
	rulePaths = append(rulePaths, rulePath{"full-state load, unproven relay", workloadLoadUnproven, []string{"Rules.Load.RequireProof"}})
	rulePaths = append(rulePaths, rulePath{"full-state load defences", workloadLoadDefences,
		[]string{"Rules.Load.FirstUntil", "Rules.Load.Retry", "Rules.Load.FenceFits", "Rules.Load.SettleFence"}})
}

// workloadLoadDefences reaches the defences: a first band under the
// nonce's until, a push-only band asked again by another filter, and a
// load refused because the client's other subscriptions may crowd the
// fence out of a relay's capacity.
func workloadLoadDefences(t *testing.T, rules *Rules) {
	y := mkEv(slotD(2), 90, "y")
	l := newTestLoad(t, 10, rules)
	out := script(l, eoseIn(l.FenceID()), evIn(l.FenceID(), y), evIn("load-q1", y), eoseIn("load-q1"))
	if len(out) < 2 || !strings.Contains(out[1], `"until":4294967291`) || !strings.Contains(out[len(out)-1], `"until":4294967290`) {
		t.Fatalf("first band and its retry:\n%s", strings.Join(out, "\n"))
	}
	full, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 10, Rules: rules, OtherSubs: 19, RelayMaxSubs: 20})
	if err != nil {
		t.Fatal(err)
	}
	if full.Start() != nil || full.Result().Reason != ReasonSubscriptions {
		t.Fatalf("19 others at a capacity of 20: %s/%s", full.Verdict(), full.Result().Reason)
	}
	// Two passes with a gap: the fence's answer is followed by the gap
	// before the first query (SettleFence), which the caller is told.
	two, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 10, Rules: rules, Passes: 2, PassGap: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	two.Start()
	first := two.Feed(eoseIn(two.FenceID()))
	gap, due := two.PassGapDue()
	if len(first) != 1 || first[0].Kind != OutREQ || !due || gap != time.Millisecond {
		t.Fatalf("two passes, the fence answered: %d messages, gap due %v (%s)", len(first), due, gap)
	}
}

// workloadLoad runs a load that reaches every LoadRules field: a fence
// delivery (the superseded version of a coordinate), a band, a pinned
// window and an empty continuation.
func workloadLoad(t *testing.T, rules *Rules) {
	lo, hi := pair(slotD(1), 50)
	y := mkEv(slotD(2), 90, "y")
	r := &relayStub{store: []*nostr.Event{lo, y}, cap: 10}
	l := newTestLoad(t, 10, rules)
	queue := l.Start()
	queue = append(queue, l.Feed(evIn(l.FenceID(), hi))...)
	for len(queue) > 0 {
		o := queue[0]
		queue = queue[1:]
		for _, m := range r.answer(o) {
			queue = append(queue, l.Feed(m)...)
		}
	}
	res := l.Result()
	if res.Verdict != Complete || len(res.Events) != 2 || res.Events[0] != lo || res.Events[1] != y {
		t.Fatalf("load: %s (%s), events %v", res.Verdict, res.Detail, res.Events)
	}
	if res.Stats.Queries != 3 {
		t.Fatalf("load: %d queries, want 3", res.Stats.Queries)
	}
	// A query delivering an event the fence pushed while it was in flight.
	p := newTestLoad(t, 10, rules)
	script(p, eoseIn(p.FenceID()), evIn(p.FenceID(), y), evIn("load-q1", y), evIn("load-q1", lo), eoseIn("load-q1"))
	if ts, _ := p.Cursor(); ts != lo.CreatedAt {
		t.Fatalf("cursor %d after a pushed delivery, want %d", ts, lo.CreatedAt)
	}
}

func TestSpecLoadRules(t *testing.T) {
	lr := Proposed().Load
	if lr.Floor() != 2 {
		t.Errorf("L = %d", lr.Floor())
	}
	if f := lr.EnumerationFilter(testPK, 7); len(f.Tags) != 0 || f.Limit != 7 || f.Since != nil || f.Until != nil {
		t.Errorf("enumeration filter %s", f)
	}
	for _, tc := range []struct{ pinned, c, want int }{{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {2, 1, 0}, {2, 3, 1}, {3, 3, 0}} {
		if got := lr.Exhausted(tc.pinned, tc.c, 2); got != (tc.want == 1) {
			t.Errorf("Exhausted(%d, C=%d, L=2) = %v", tc.pinned, tc.c, got)
		}
	}
	if lr.Finished(1, 500) || !lr.Finished(0, 500) {
		t.Error("Finished must hold exactly for an empty delivery")
	}
	e := mkEv("x", 1, "")
	if !lr.CursorFrom(e, false) || lr.FenceCountsForC(e) || lr.FenceMovesCursor(e) || !lr.PinWindow(5) {
		t.Error("cursor and fence rules")
	}
	if lr.FenceEstablished(true, false) || !lr.FenceEstablished(true, true) {
		t.Error("fence established only on EOSE")
	}
}

// workloadLoadLost reaches the verdict of a lost connection: after the
// fence's end-of-stored-events, as the text reads it, the fence lapsed.
func workloadLoadLost(t *testing.T, rules *Rules) {
	l := newTestLoad(t, 2, rules)
	script(l, eoseIn(l.FenceID()), In{Kind: InConnectionLost})
	if l.Verdict() != CannotProveComplete || l.Result().Reason != ReasonFenceLapsed {
		t.Fatalf("%s/%s", l.Verdict(), l.Result().Reason)
	}
}

// workloadLoadUnproven reaches the verdict of an enumeration that ends on
// a relay the client holds unproven: under proposal
// unproven-relay-not-complete, cannot prove complete.
func workloadLoadUnproven(t *testing.T, rules *Rules) {
	l, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 2, Rules: rules, Nonce: testNonce, Unproven: "no record"})
	if err != nil {
		t.Fatal(err)
	}
	script(l, eoseIn(l.FenceID()), eoseIn(l.prefix+"-q1"))
	if l.Verdict() != CannotProveComplete || l.Result().Reason != ReasonUnproven {
		t.Fatalf("%s/%s", l.Verdict(), l.Result().Reason)
	}
}

// TestSpecLoadReadings pins the text's reading of each load decision a
// proposal changes, against Proposed: the same frames, decided apart.
func TestSpecLoadReadings(t *testing.T) {
	a, b := mkEv(slotD(1), 100, "a"), mkEv(slotD(2), 90, "b")
	old := mkEv(slotD(3), 80, "c")
	tests := []struct {
		name     string
		unproven string
		in       []In
		// spec and proposed are the verdict and reason after the frames.
		spec, proposed [2]string
	}{
		{"results out of order (" + ProposalNewestFirst + ")", "",
			[]In{eoseIn("load-fence"), evIn("load-q1", b), evIn("load-q1", a), eoseIn("load-q1")},
			[2]string{"running", "none"}, [2]string{"cannot-prove-complete", "non-conforming"}},
		{"a delivery past the limit, then the connection lost (" + ProposalLimitResults + ")", "",
			[]In{eoseIn("load-fence"), evIn("load-q1", a), evIn("load-q1", b), evIn("load-q1", old), {Kind: InConnectionLost}},
			[2]string{"cannot-prove-complete", "non-conforming"}, [2]string{"cannot-prove-complete", "fence-lapsed"}},
		{"an enumeration that ends on an unproven relay (" + ProposalUnproven + ")", "no record",
			[]In{eoseIn("load-fence"), eoseIn("load-q1")},
			[2]string{"complete", "none"}, [2]string{"cannot-prove-complete", "unproven"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, rs := range []struct {
				rules *Rules
				want  [2]string
			}{{Spec(), tc.spec}, {Proposed(), tc.proposed}} {
				l, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 2, Rules: rs.rules, SubPrefix: "load", Nonce: testNonce, Unproven: tc.unproven})
				if err != nil {
					t.Fatal(err)
				}
				script(l, tc.in...)
				res := l.Result()
				l.Abort("test over")
				if got := [2]string{res.Verdict.String(), res.Reason.String()}; got != rs.want {
					t.Errorf("%s: %s/%s (%s), want %s/%s", rs.rules.Name, got[0], got[1], res.Detail, rs.want[0], rs.want[1])
				}
			}
		})
	}
}
