package history

import (
	"errors"
	"math"
	"testing"
)

const yearMs = 365 * 24 * 3_600_000

// TestWrapFromTheFuture: a wrap's created_at is its signer's choice. One
// dated ten years ahead becomes the cursor's newest under the document's
// rules, and the next catch-up asks only from there: the wraps published
// after it are never fetched while the cursor claims them. Under the
// proposed rules the newest page stops at the clock plus the skew; the
// future wrap waits until it is due and the later wraps are fetched.
func TestWrapFromTheFuture(t *testing.T) {
	now := int64(1_700_000_000_000)
	past := wraps("p", 10, now-100_000, 1_000)
	future := Event{ID: "f", CreatedAtMs: now + 10*yearMs}
	later := wraps("l", 5, now+60_000, 1_000)
	for _, tc := range []struct {
		rules   *Rules
		missing int
	}{{Spec(), 5}, {Proposed(), 0}} {
		relay := &Relay{Events: append(append([]Event{}, past...), future)}
		store := NewMemoryStore()
		c, _ := runWith(t, tc.rules, Cursor{}, now, store, relay)
		relay.Events = append(relay.Events, later...)
		c, _ = runWith(t, tc.rules, c, now+120_000, store, relay)
		if got := missing(store, later); got != tc.missing || c.NewestMs > now+120_000+ClockSkewMs && tc.missing == 0 {
			t.Errorf("%s: cursor %s, %d of the later wraps missing, want %d", tc.rules.Name, c, got, tc.missing)
		}
		if tc.missing > 0 && c.NewestMs != future.CreatedAtMs {
			t.Errorf("%s: cursor %s: the future wrap should have become newest", tc.rules.Name, c)
		}
	}
}

// TestRelayIgnoringTheWindow: a relay that replays its newest wraps to
// every page whatever its until. Under the document's rules the older
// page's answer lies outside the window, is not counted, the page looks
// short and the channel is sealed with 99 wraps unread; under the
// proposed rules the stray answer is evidence against the relay, which
// leaves the round, and nothing is sealed.
func TestRelayIgnoringTheWindow(t *testing.T) {
	es := wraps("w", 150, 1_000, 1_000)
	for _, tc := range []struct {
		rules     *Rules
		exhausted bool
		stray     bool
	}{{Spec(), true, false}, {Proposed(), false, true}} {
		store := NewMemoryStore()
		c, p := runWith(t, tc.rules, Cursor{}, 1_000_000, store, &Relay{Events: es, Mode: IgnoresWindow})
		stray := len(p.Errors) == 1 && p.Errors[0].Kind == FailStray
		if c.Exhausted != tc.exhausted || stray != tc.stray || store.Len() != 50 {
			t.Errorf("%s: cursor %s, %d stored, errors %v", tc.rules.Name, c, store.Len(), p.Errors)
		}
	}
}

// TestTimestampsAtTheEdges: created_at values near the int64 edges, from a
// relay and from the live subscription, under every rule set: no page the
// round asks has a bound outside [0, MaxTimeMs], the round ends within
// its budgets, the cursor stays inside the range, and a persisted cursor
// outside it is refused with an error, not run.
func TestTimestampsAtTheEdges(t *testing.T) {
	edges := []Event{{"max", math.MaxInt64}, {"min", math.MinInt64}, {"neg", -1}, {"zero", 0}, {"last", MaxTimeMs}, {"over", MaxTimeMs + 1}}
	for name, mk := range RuleSets() {
		store := NewMemoryStore()
		for _, e := range edges {
			store.Add(e) // as the live subscription would
		}
		relay := &Relay{Events: append(wraps("w", 120, 0, 1), edges...), Mode: IgnoresWindow}
		honest := &Relay{Events: append(wraps("w", 120, 0, 1), edges...)}
		c, p := runWith(t, mk(), Cursor{}, 1_000, store, relay, honest)
		for _, pg := range p.Pages {
			w := pg.Window
			if (w.HasSince && !inRange(w.SinceMs)) || (w.HasUntil && !inRange(w.UntilMs)) {
				t.Errorf("%s: page %s %s outside 0..MaxTimeMs", name, pg.Pass, w)
			}
		}
		if len(p.Pages) > pageBound(Defaults()) {
			t.Errorf("%s: %d pages", name, len(p.Pages))
		}
		if checkCursor(c) != nil {
			t.Errorf("%s: cursor %s outside the range", name, c)
		}
	}
	for _, bad := range []Cursor{
		{HasNewest: true, NewestMs: math.MaxInt64}, {HasOldest: true, OldestMs: -5},
		{HasNewest: true, NewestMs: 5, HasOldest: true, OldestMs: 9},
		{HasNewest: true, NewestMs: 5, Pending: &Window{HasSince: true, SinceMs: math.MinInt64, HasUntil: true}},
	} {
		if _, err := NewRound(Defaults(), Proposed(), bad, CatchUp, 1, NewMemoryStore()); !errors.Is(err, ErrConfig) {
			t.Errorf("saved cursor %s: err %v, want a refusal", bad, err)
		}
	}
	r, _ := NewRound(Defaults(), Proposed(), Cursor{}, CatchUp, 1, NewMemoryStore())
	if err := r.SetNow(math.MaxInt64); !errors.Is(err, ErrConfig) {
		t.Errorf("a clock at MaxInt64: %v", err)
	}
	if err := r.Record(3, 10); !errors.Is(err, ErrConfig) {
		t.Errorf("a record for a relay the round does not have: %v", err)
	}
}

// TestMemoryStoreReadsAsSorted: a store filled in any order reads back as
// a sorted list does, for windows at and around its edges.
func TestMemoryStoreReadsAsSorted(t *testing.T) {
	es := append(wraps("a", 200, 0, 7), wraps("b", 100, 50, 3)...)
	es = append(es, es[:20]...) // duplicates
	s := NewMemoryStore()
	added := 0
	for i := range es {
		e := es[(i*37)%len(es)]
		if s.Add(e) {
			added++
		}
		if i%50 == 0 {
			s.Query(Window{}, 1) // reads between additions merge them in
		}
	}
	ref := append([]Event{}, es[:300]...)
	SortNewestFirst(ref)
	if added != 300 || s.Len() != 300 {
		t.Fatalf("added %d, len %d, want 300", added, s.Len())
	}
	for _, w := range []Window{{}, {HasUntil: true, UntilMs: 600}, {HasSince: true, SinceMs: 100, HasUntil: true, UntilMs: 100}, {HasSince: true, SinceMs: 1000}, {HasUntil: true, UntilMs: -1}} {
		for _, limit := range []int{1, 7, 500} {
			got, want := s.Query(w, limit), query(ref, w, limit)
			if len(got) != len(want) {
				t.Fatalf("%s limit %d: %d wraps, want %d", w, limit, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s limit %d: wrap %d is %v, want %v", w, limit, i, got[i], want[i])
				}
			}
		}
	}
}

// TestRelaySendingPastTheLimit: a relay that sends more wraps than the
// page's limit breaks NIP-01; under the proposed rules that is evidence
// against it, as a stray wrap is.
func TestRelaySendingPastTheLimit(t *testing.T) {
	r, err := NewRound(Defaults(), Proposed(), Cursor{}, CatchUp, 1, NewMemoryStore())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.Next()
	r.Deliver(0, wraps("w", p.Limit+1, 1_000, 1_000))
	r.EOSE(0)
	_, prog := Drive(r, []*Relay{{}}, nil)
	if len(prog.Errors) != 1 || prog.Errors[0].Kind != FailStray || !prog.Failed {
		t.Errorf("errors %v, failed %v: want the relay reported as a stray", prog.Errors, prog.Failed)
	}
}
