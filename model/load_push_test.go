package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// TestLoadQueryPush: a relay may push an event it accepts onto a query
// still being answered (khatru registers each REQ as a listener first).
// Such a delivery is no stored result: it must move neither C nor T.
func TestLoadQueryPush(t *testing.T) {
	a := mkEv(slotD(1), 100, "a")
	b := mkEv(slotD(2), 90, "b")
	c := mkEv(slotD(3), 80, "c") // below the cap: found only by continuing at until=89
	back := mkEv("app:backdated", 10, "f")
	w := mkEv(slotD(4), 100, "w")
	tests := []struct {
		name    string
		in      func(l *Load) []In
		verdict Verdict
		reason  Reason
		cursor  nostr.Timestamp
	}{
		{"a backdated push on the band does not lower T", func(l *Load) []In {
			f := l.FenceID()
			return []In{eoseIn(f), evIn("load-q1", a), evIn("load-q1", b), evIn(f, back), evIn("load-q1", back), eoseIn("load-q1")}
		}, Running, ReasonNone, 90},
		{"a push before the fence's copy of it is not a result either", func(l *Load) []In {
			f := l.FenceID()
			return []In{eoseIn(f), evIn("load-q1", a), evIn("load-q1", back), evIn(f, back), evIn("load-q1", b), eoseIn("load-q1")}
		}, Running, ReasonNone, 90},
		{"the fence pushing a counted result afterwards voids the load", func(l *Load) []In {
			f := l.FenceID()
			return []In{eoseIn(f), evIn("load-q1", a), evIn("load-q1", back), eoseIn("load-q1"), evIn(f, back)}
		}, CannotProveComplete, ReasonQueryPush, 10},
		{"a band of pushes only is asked again", func(l *Load) []In {
			f := l.FenceID()
			return []In{eoseIn(f), evIn(f, w), evIn("load-q1", w), eoseIn("load-q1"),
				evIn("load-q2", w), evIn("load-q2", a), eoseIn("load-q2")}
		}, Running, ReasonNone, 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newTestLoad(t, 2, nil)
			out := script(l, tc.in(l)...)
			if l.Verdict() != tc.verdict || l.Result().Reason != tc.reason {
				t.Fatalf("%s/%s (%s), want %s/%s\n%s", l.Verdict(), l.Result().Reason, l.Result().Detail, tc.verdict, tc.reason, strings.Join(out, "\n"))
			}
			if ts, _ := l.Cursor(); ts != tc.cursor {
				t.Fatalf("T = %d, want %d\n%s", ts, tc.cursor, strings.Join(out, "\n"))
			}
			if tc.verdict == Running && l.C() > 2 {
				t.Fatalf("C = %d counts a push", l.C())
			}
		})
	}
	// The whole load over a cap-2 relay holding a, b, c while a foreign
	// backdated write lands during the first band: complete, c collected.
	l := newTestLoad(t, 2, nil)
	r := &relayStub{store: []*nostr.Event{a, b, c}, cap: 2}
	queue := l.Start()
	for len(queue) > 0 {
		o := queue[0]
		queue = queue[1:]
		answers := r.answer(o)
		if o.Kind == OutREQ && o.SubID == "load-q1" {
			r.store = append(r.store, back)
			push := []In{evIn(l.FenceID(), back), evIn("load-q1", back)}
			answers = append(answers[:len(answers)-1:len(answers)-1], append(push, answers[len(answers)-1])...)
		}
		for _, m := range answers {
			queue = append(queue, l.Feed(m)...)
		}
	}
	res := l.Result()
	if res.Verdict != Complete || len(res.Events) != 3 {
		t.Fatalf("%s (%s) with %d coordinates, want complete with 3\n%s", res.Verdict, res.Detail, len(res.Events), strings.Join(r.sent, "\n"))
	}
}

// TestLoadResultsNewestFirst: a query's results out of created_at order
// are evidence that the relay breaks the newest-first requirement, so the
// load is cannot-prove-complete with that reason; a newer event pushed on
// the query while it is answered (and so also on the fence) is no result
// and no such evidence.
func TestLoadResultsNewestFirst(t *testing.T) {
	a := mkEv(slotD(1), 100, "a")
	b := mkEv(slotD(2), 90, "b")
	late := mkEv(slotD(3), 120, "late")
	mid, old := mkEv(slotD(4), 70, "mid"), mkEv(slotD(5), 50, "old")
	tests := []struct {
		name    string
		in      func(f string) []In
		verdict Verdict
		reason  Reason
	}{
		{"newest first", func(f string) []In {
			return []In{eoseIn(f), evIn("load-q1", a), evIn("load-q1", b), eoseIn("load-q1")}
		}, Running, ReasonNone},
		{"an older result first", func(f string) []In {
			return []In{eoseIn(f), evIn("load-q1", b), evIn("load-q1", a), eoseIn("load-q1")}
		}, CannotProveComplete, ReasonNonConforming},
		{"a newer stored result last", func(f string) []In {
			return []In{eoseIn(f), evIn("load-q1", a), evIn("load-q1", b), evIn("load-q1", late), eoseIn("load-q1")}
		}, CannotProveComplete, ReasonNonConforming},
		{"a newer write pushed on the query", func(f string) []In {
			return []In{eoseIn(f), evIn("load-q1", a), evIn("load-q1", b), evIn(f, late), evIn("load-q1", late), eoseIn("load-q1")}
		}, Running, ReasonNone},
		{"a continuation out of order", func(f string) []In {
			return []In{eoseIn(f), evIn("load-q1", late), evIn("load-q1", a), evIn("load-q1", b), eoseIn("load-q1"),
				evIn("load-q2", b), eoseIn("load-q2"), evIn("load-q3", old), evIn("load-q3", mid), eoseIn("load-q3")}
		}, CannotProveComplete, ReasonNonConforming},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newTestLoad(t, 3, nil)
			out := script(l, tc.in(l.FenceID())...)
			res := l.Result()
			if res.Verdict != tc.verdict || res.Reason != tc.reason {
				t.Fatalf("%s/%s (%s), want %s/%s\n%s", res.Verdict, res.Reason, res.Detail, tc.verdict, tc.reason, strings.Join(out, "\n"))
			}
			if tc.reason == ReasonNonConforming && !strings.Contains(res.Detail, "not newest-first") {
				t.Fatalf("detail %q does not say the results are out of order", res.Detail)
			}
		})
	}
}

// TestLoadPushRetriesBounded: a relay that answers every band with only
// events the fence pushed meanwhile cannot be descended: after a bounded
// number of repeats the load is cannot-prove-complete.
func TestLoadPushRetriesBounded(t *testing.T) {
	l := newTestLoad(t, 2, nil)
	f := l.FenceID()
	in := []In{eoseIn(f)}
	for i := 1; i <= maxPushRetries+1; i++ {
		q := "load-q" + string(rune('0'+i))
		w := mkEv(slotD(i), 100, "w")
		in = append(in, evIn(f, w), evIn(q, w), eoseIn(q))
	}
	out := script(l, in...)
	if l.Verdict() != CannotProveComplete || l.Result().Reason != ReasonQueryPush {
		t.Fatalf("%s/%s after %d push-only bands\n%s", l.Verdict(), l.Result().Reason, maxPushRetries+1, strings.Join(out, "\n"))
	}
}

// TestLoadDefaultIDsUnique: loads configured without a prefix never share
// a subscription id, so two loads on one connection never reopen one.
func TestLoadDefaultIDsUnique(t *testing.T) {
	seen := map[string]bool{}
	for range 3 {
		l, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		out := append(l.Start(), l.Feed(eoseIn(l.FenceID()))...)
		for _, o := range out {
			if seen[o.SubID] {
				t.Fatalf("subscription id %s reused by a later load", o.SubID)
			}
		}
		for _, o := range out {
			seen[o.SubID] = true
		}
	}
}

// TestFencePushBeforeEOSE: the fence may be pushed a write accepted
// while the relay answers it, before its end-of-stored-events. One more
// delivery than the n stored events asked for is such a push, no
// evidence against the relay: the load goes on and collects it. A stream
// past the pushes a load allows ends it, still without evidence.
func TestFencePushBeforeEOSE(t *testing.T) {
	a := mkEv(slotD(1), 100, "a")
	b := mkEv(slotD(2), 90, "b")
	a2 := mkEv(slotD(1), 101, "a2") // the replacement of a, pushed before the fence's EOSE
	l := newTestLoad(t, 2, nil)
	f := l.FenceID()
	script(l, evIn(f, a), evIn(f, b), evIn(f, a2), eoseIn(f))
	if l.Verdict() != Running {
		t.Fatalf("%s/%s (%s): an extra delivery before the fence's EOSE ended the load", l.Verdict(), l.Result().Reason, l.Result().Detail)
	}
	l.Abort("next case")
	l = newTestLoad(t, 2, nil)
	f = l.FenceID()
	var in []In
	for i := range 2 + fencePrePushes + 1 {
		in = append(in, evIn(f, mkEv(slotD(i+1), int64(100+i), "x")))
	}
	script(l, in...)
	if l.Verdict() != CannotProveComplete || l.Result().Reason != ReasonFenceOverflow || l.Result().Reason == ReasonNonConforming {
		t.Fatalf("a flood of %d: %s/%s (%s), want %s/%s", len(in), l.Verdict(), l.Result().Reason, l.Result().Detail, CannotProveComplete, ReasonFenceOverflow)
	}
}

// TestQueryStreamIsBounded: a query answered by a stream of distinct
// events without end stops being held past its limit and the pushes a
// query may be sent: the load ends cannot-prove-complete, reason
// fence-overflow, no evidence against the relay, and holds no more.
func TestQueryStreamIsBounded(t *testing.T) {
	l := newTestLoad(t, 2, nil)
	f := l.FenceID()
	script(l, eoseIn(f))
	for i := range 1000 {
		script(l, evIn("load-q1", mkEv("app:flood", int64(1000-i), fmt.Sprintf("e%d", i))))
	}
	if l.Verdict() != CannotProveComplete || l.Result().Reason != ReasonFenceOverflow {
		t.Fatalf("%s/%s (%s), want %s/%s", l.Verdict(), l.Result().Reason, l.Result().Detail, CannotProveComplete, ReasonFenceOverflow)
	}
	if got := l.Result().Stats.Received; got > 2+fencePrePushes+1 {
		t.Fatalf("%d events received and held, want at most %d", got, 2+fencePrePushes+1)
	}
}
