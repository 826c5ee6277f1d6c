package history

import "testing"

// Two behaviours outside the universe's bounds, pinned so that a change to
// either is seen: both are argued in NOTE.md ("Paged history walk"), not
// verified.

// TestEqualTimesAtAFullPageBoundary: wraps sharing the created_at of a full
// page's oldest wrap that did not fit in the page are skipped by the
// exclusive boundary, and the cursor still claims the region complete.
// The universe gives every wrap its own created_at.
func TestEqualTimesAtAFullPageBoundary(t *testing.T) {
	cfg := Config{PageWraps: 2, CatchUpPages: 4, LoadOlderPages: 4}
	relay := &Relay{Events: []Event{{"a", 5}, {"b", 5}, {"c", 5}, {"d", 9}}}
	store := NewMemoryStore()
	r, err := NewRound(cfg, Spec(), Cursor{}, CatchUp, 1, store)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := Drive(r, []*Relay{relay}, nil)
	missing := 0
	for _, e := range relay.Events {
		if !store.Has(e) {
			missing++
		}
	}
	if missing != 2 || !c.Exhausted || c.OldestMs != 5 {
		t.Errorf("cursor %s with %d wraps missing: want the two wraps of t=5 beyond the page skipped under an exhausted cursor", c, missing)
	}
}

// TestRelayCappedBelowThePage: a relay that returns fewer wraps than the
// page limit looks bottomed out on every page: the newest page and one
// older page of 20 each, and the walk seals the channel with 40 of its 80
// wraps missing. The walk's short-page rule
// presumes every relay honours PAGE_WRAPS.
func TestRelayCappedBelowThePage(t *testing.T) {
	relay := &Relay{Events: wraps("w", 80, 1_000, 1_000), Cap: 20}
	store := NewMemoryStore()
	c, _ := run(t, Spec(), Cursor{}, CatchUp, store, relay)
	if store.Len() != 40 || !c.Exhausted {
		t.Errorf("cursor %s after a round over a relay capped at 20: %d wraps stored", c, store.Len())
	}
}
