package history

import (
	"fmt"
	"testing"
)

// plateau is ten seconds of 60 wraps each (more than a page of 50) under
// two newer wraps: 602 in all.
func plateau() []Event {
	var es []Event
	for s := range 10 {
		es = append(es, wraps(fmt.Sprintf("s%d-", s), 60, int64(10_000+s*1_000), 0)...)
	}
	return append(es, wraps("top", 2, 100_000, 1_000)...)
}

// TestSecondBeyondAPage: a relay with no capability record answers every
// limit in full; each of ten seconds holds 60 wraps, more than a page. Its
// answer to a pinned second (60 of a limit of 98 or 100) is short, but
// what the relay sent before (50, to the pages of 50) does not show its
// cap is above 60: without a probe every such second is reported
// unproven, every round, and no cursor is ever set. With the probe (the
// page the second came from asked again at the pinned limit, which the
// relay fills) the answer is proven and one round stores all 602 under an
// exhausted cursor.
func TestSecondBeyondAPage(t *testing.T) {
	es := plateau()
	noProbe := Proposed().Clone()
	noProbe.Name = "proposed without ProveCap"
	noProbe.ProveCap = Spec().ProveCap
	for _, tc := range []struct {
		rules     *Rules
		exhausted bool
	}{{noProbe, false}, {Proposed(), true}} {
		store := NewMemoryStore()
		var c Cursor
		var p Progress
		for range 3 {
			c, p = runWith(t, tc.rules, c, 200_000, store, &Relay{Events: es})
		}
		if tc.exhausted != (c.Exhausted && c.OldestMs == 10_000 && c.NewestMs == 101_000 && p.Unproven == 0 && missing(store, es) == 0) {
			t.Errorf("%s: cursor %s, %d of %d missing, %d seconds unproven after three rounds", tc.rules.Name, c, missing(store, es), len(es), p.Unproven)
		}
		if !tc.exhausted && (c.HasNewest || p.Unproven == 0) {
			t.Errorf("%s: cursor %s, unproven %d: the defect is not reproduced", tc.rules.Name, c, p.Unproven)
		}
	}
}

// TestSecondBeyondACap: a relay capped at 50 cannot send a second of 60
// whole, and nothing it can answer shows it: the round reports each such
// second unproven (with the window of the page it came from), within its
// page bound, and claims none of them.
func TestSecondBeyondACap(t *testing.T) {
	es := plateau()
	store := NewMemoryStore()
	c, p := runWith(t, Proposed(), Cursor{}, 200_000, store, &Relay{Events: es, Cap: 50})
	if c.HasNewest || c.HasOldest || c.Exhausted || p.Unproven == 0 || len(p.UnprovenSeconds) != p.Unproven || len(p.Pages) > pageBound(Defaults()) {
		t.Fatalf("cursor %s, %d unproven (%v), %d pages", c, p.Unproven, p.UnprovenSeconds, len(p.Pages))
	}
	if us := p.UnprovenSeconds[0]; us.SecondMs != 19_000 || us.Origin.HasSince || us.Origin.UntilMs != 200_000+ClockSkewMs {
		t.Errorf("first unproven second %+v: want 19,000 in the newest page's window", us)
	}
}
