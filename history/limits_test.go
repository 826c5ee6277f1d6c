package history

import "testing"

// The document's holes at production sizes, under its rules and under the
// proposed ones. The universe variants find each by search (variants_test.go);
// these pin the same behaviour at PageWraps = 50.

// runWith drives one round at the production sizes with the clock at nowMs.
func runWith(t *testing.T, rules *Rules, saved Cursor, nowMs int64, store *MemoryStore, relays ...*Relay) (Cursor, Progress) {
	t.Helper()
	r, err := NewRound(Defaults(), rules, saved, CatchUp, len(relays), store)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetNow(nowMs); err != nil {
		t.Fatal(err)
	}
	c, p := Drive(r, relays, nil)
	if !r.Done() {
		t.Fatal("the round did not finish")
	}
	return c, p
}

func missing(store *MemoryStore, es []Event) int {
	n := 0
	for _, e := range es {
		if !store.Has(e) {
			n++
		}
	}
	return n
}

// TestEqualTimesAtAFullPageBoundary: 60 wraps in one second below 30
// newer ones. Under the document's rules the exclusive boundary skips the
// 40 of that second the full page did not hold, and the cursor claims the
// region complete and exhausted; the proposed rules ask the second again
// pinned and store every wrap.
func TestEqualTimesAtAFullPageBoundary(t *testing.T) {
	es := append(wraps("s", 60, 5_000, 0), wraps("n", 30, 10_000, 1_000)...)
	for _, tc := range []struct {
		rules   *Rules
		missing int
	}{{Spec(), 40}, {Proposed(), 0}} {
		store := NewMemoryStore()
		c, _ := runWith(t, tc.rules, Cursor{}, 100_000, store, &Relay{Events: es, Record: 500})
		if got := missing(store, es); got != tc.missing || !c.Exhausted || c.OldestMs != 5_000 {
			t.Errorf("%s: cursor %s with %d wraps missing, want %d missing under an exhausted cursor", tc.rules.Name, c, got, tc.missing)
		}
	}
}

// TestRelayCappedBelowThePage: a relay that returns 20 wraps whatever the
// limit looks bottomed out on every page under the document's rules (the
// newest page and one older page, 40 of 80 wraps missing, sealed); under
// the proposed rules its short answers prove nothing until it returns none,
// and one round stores all 80.
func TestRelayCappedBelowThePage(t *testing.T) {
	es := wraps("w", 80, 1_000, 1_000)
	for _, tc := range []struct {
		rules  *Rules
		stored int
	}{{Spec(), 40}, {Proposed(), 80}} {
		store := NewMemoryStore()
		c, _ := runWith(t, tc.rules, Cursor{}, 100_000, store, &Relay{Events: es, Cap: 20})
		if store.Len() != tc.stored || !c.Exhausted {
			t.Errorf("%s: cursor %s after a round over a relay capped at 20: %d wraps stored, want %d", tc.rules.Name, c, store.Len(), tc.stored)
		}
	}
}

// TestCappedRelayWithARecord: a capability record at the page size makes
// a capped relay's short page a proof at once, so the walk asks no extra
// page; a record below it proves nothing.
func TestCappedRelayWithARecord(t *testing.T) {
	es := wraps("w", 30, 1_000, 1_000)
	for _, tc := range []struct {
		record, pages int
	}{{PageWraps, 2}, {0, 3}} {
		store := NewMemoryStore()
		c, p := runWith(t, Proposed(), Cursor{}, 100_000, store, &Relay{Events: es, Record: tc.record})
		if store.Len() != 30 || !c.Exhausted || len(p.Pages) != tc.pages {
			t.Errorf("record %d: cursor %s, %d stored, %d pages (want %d)", tc.record, c, store.Len(), len(p.Pages), tc.pages)
		}
	}
}
