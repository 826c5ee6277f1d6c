package history

import (
	"math"
	"testing"
)

// TestImpossibleDates: anyone can publish a wrap dated before 0 or past
// every time the walk reads (MaxTimeMs), and an honest relay returns it to
// a page whose window has no bound on that side. Under the proposed rules
// such a wrap is ignored: it is not stored, it is not held against the
// relay that sent it, and the walk pages the channel down to an exhausted
// cursor as it would without it. One dated past MaxTimeMs still takes a
// place in the relay's answer, so a page that held it is not taken for
// short.
func TestImpossibleDates(t *testing.T) {
	es := wraps("w", 120, 1_000, 1_000)
	neg := Event{ID: "neg", CreatedAtMs: -5_000}
	far := Event{ID: "far", CreatedAtMs: math.MaxInt64}
	for _, tc := range []struct {
		name  string
		clock bool
		bad   []Event
	}{{"negative", true, []Event{neg}}, {"negative, no clock", false, []Event{neg}}, {"beyond any clock, no clock", false, []Event{far}},
		{"both, no clock", false, []Event{neg, far}}} {
		store := NewMemoryStore()
		var c Cursor
		var p Progress
		for range 2 {
			r, err := NewRound(Defaults(), Proposed(), c, CatchUp, 2, store)
			if err != nil {
				t.Fatal(err)
			}
			if tc.clock {
				if err := r.SetNow(200_000); err != nil {
					t.Fatal(err)
				}
			}
			// The relay honours any limit: a short page proves at once.
			c, p = Drive(r, []*Relay{{Events: append(append([]Event{}, es...), tc.bad...), Record: Unbounded}, {Events: es}}, nil)
		}
		if len(p.Errors) != 0 || p.Failed || !c.Exhausted || c.OldestMs != 1_000 || c.NewestMs != 120_000 || missing(store, es) != 0 {
			t.Errorf("%s: cursor %s, errors %v, failed %v, %d missing: want both relays in the walk and the channel exhausted", tc.name, c, p.Errors, p.Failed, missing(store, es))
		}
		for _, e := range tc.bad {
			if store.Has(e) {
				t.Errorf("%s: the wrap at %d was stored", tc.name, e.CreatedAtMs)
			}
		}
	}
}

// TestImpossibleDateTakesAPlace: a page of 50 whose relay sent a wrap
// dated past MaxTimeMs and 49 readable ones is full: the relay may hold
// more below, so the walk asks below rather than sealing the channel.
func TestImpossibleDateTakesAPlace(t *testing.T) {
	es := wraps("w", 60, 1_000, 1_000)
	far := Event{ID: "far", CreatedAtMs: MaxTimeMs + 1}
	store := NewMemoryStore()
	r, err := NewRound(Defaults(), Proposed(), Cursor{}, CatchUp, 1, store)
	if err != nil {
		t.Fatal(err)
	}
	c, p := Drive(r, []*Relay{{Events: append(append([]Event{}, es...), far), Record: PageWraps}}, nil)
	if missing(store, es) != 0 || !c.Exhausted || len(p.Errors) != 0 {
		t.Errorf("cursor %s, %d of 60 missing, errors %v", c, missing(store, es), p.Errors)
	}
}
