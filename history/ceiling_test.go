package history

import "testing"

// TestCeilingSkew: under the proposed walk the newest page asks nothing
// dated more than the clock skew ahead of local time. A wrap dated within
// the skew is read (the ceiling is inclusive), one a millisecond beyond is
// never asked for, so it can never become the cursor's newest; near the
// end of the time range the ceiling stops at MaxTimeMs.
func TestCeilingSkew(t *testing.T) {
	skew := Defaults().SkewMs
	for _, tc := range []struct {
		name      string
		nowMs     int64
		wantUntil int64
	}{
		{"an ordinary clock", 200_000, 200_000 + skew},
		{"a clock at zero", 0, skew},
		{"a clock within the skew of the range's end", MaxTimeMs - skew/2, MaxTimeMs},
		{"a clock at the range's end", MaxTimeMs, MaxTimeMs},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, ok := Proposed().Ceiling(tc.nowMs, skew); !ok || got != tc.wantUntil {
				t.Fatalf("ceiling at %d with skew %d: %d %v, want %d", tc.nowMs, skew, got, ok, tc.wantUntil)
			}
			es := wraps("h", 30, 1_000, 1_000)
			var within, beyond []Event
			within = append(within, Event{ID: "within", CreatedAtMs: tc.wantUntil})
			if tc.wantUntil > 0 {
				within = append(within, Event{ID: "inside", CreatedAtMs: tc.wantUntil - 1})
			}
			if tc.wantUntil < MaxTimeMs {
				beyond = append(beyond, Event{ID: "beyond", CreatedAtMs: tc.wantUntil + 1})
			}
			store := NewMemoryStore()
			r, err := NewRound(Defaults(), Proposed(), Cursor{}, CatchUp, 1, store)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.SetNow(tc.nowMs); err != nil {
				t.Fatal(err)
			}
			all := append(append(append([]Event{}, es...), within...), beyond...)
			c, p := Drive(r, []*Relay{{Events: all, Record: Unbounded}}, nil)
			if len(p.Pages) == 0 || !p.Pages[0].Window.HasUntil || p.Pages[0].Window.UntilMs != tc.wantUntil {
				t.Fatalf("first page %+v, want it bounded at %d", p.Pages, tc.wantUntil)
			}
			for _, e := range within {
				if !store.Has(e) {
					t.Errorf("the wrap at %d, within the skew of %d, was not read", e.CreatedAtMs, tc.nowMs)
				}
			}
			for _, e := range beyond {
				if store.Has(e) {
					t.Errorf("the wrap at %d, beyond the skew of %d, was read", e.CreatedAtMs, tc.nowMs)
				}
			}
			if c.NewestMs != tc.wantUntil {
				t.Errorf("cursor's newest %d, want %d", c.NewestMs, tc.wantUntil)
			}
		})
	}
	// The spec's walk has no ceiling: the round asks no until however the
	// clock is set.
	if _, ok := Spec().Ceiling(0, skew); ok {
		t.Error("the spec's walk has a ceiling")
	}
}
