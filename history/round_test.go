package history

import (
	"errors"
	"fmt"
	"testing"
)

// wraps returns n wraps at created_at from, from+step, ...
func wraps(prefix string, n int, from, step int64) []Event {
	out := make([]Event, n)
	for i := range out {
		out[i] = Event{ID: fmt.Sprintf("%s%04d", prefix, i), CreatedAtMs: from + int64(i)*step}
	}
	return out
}

func run(t *testing.T, rules *Rules, saved Cursor, intent Intent, store *MemoryStore, relays ...*Relay) (Cursor, Progress) {
	t.Helper()
	r, err := NewRound(Defaults(), rules, saved, intent, len(relays), store)
	if err != nil {
		t.Fatal(err)
	}
	c, p := Drive(r, relays, nil)
	if !r.Done() {
		t.Fatal("the round did not finish")
	}
	return c, p
}

// TestProductionRounds runs rounds at the production sizes against
// simulated relays, one scenario per row.
func TestProductionRounds(t *testing.T) {
	history := wraps("h", 120, 1_000, 1_000) // 1,000 .. 120,000 ms
	tests := []struct {
		name      string
		saved     Cursor
		intent    Intent
		relays    []*Relay
		want      Cursor
		failed    bool
		errors    int
		firstPage Window
	}{
		{name: "cold open pages everything down and earns exhausted", relays: []*Relay{{Events: history}},
			want:      Cursor{HasNewest: true, NewestMs: 120_000, HasOldest: true, OldestMs: 1_000, Exhausted: true},
			firstPage: Window{}},
		{name: "a capped relay's short page ends no walk while another relay's page is full",
			relays: []*Relay{{Events: history, Cap: 10}, {Events: history}},
			want:   Cursor{HasNewest: true, NewestMs: 120_000, HasOldest: true, OldestMs: 1_000, Exhausted: true}},
		{name: "warm open asks from newest minus the overlap",
			saved:     Cursor{HasNewest: true, NewestMs: 120_000, HasOldest: true, OldestMs: 1_000, Exhausted: true},
			relays:    []*Relay{{Events: history}},
			want:      Cursor{HasNewest: true, NewestMs: 120_000, HasOldest: true, OldestMs: 1_000, Exhausted: true},
			firstPage: Window{HasSince: true, SinceMs: 120_000 - CursorOverlapMs}},
		{name: "an all-empty round is failed, never exhausted", relays: []*Relay{{}, {}},
			failed: true, firstPage: Window{}},
		{name: "a silent relay blocks every advance", relays: []*Relay{{Events: history}, {Mode: Silent}},
			failed: true, errors: 1},
		{name: "auth-required is no failure", relays: []*Relay{{Events: history, Mode: AuthThenAnswers}},
			want: Cursor{HasNewest: true, NewestMs: 120_000, HasOldest: true, OldestMs: 1_000, Exhausted: true}},
		{name: "a failed AUTH refuses the relay", relays: []*Relay{{Events: history}, {Mode: AuthFails}},
			failed: true, errors: 1},
		{name: "a scroll-up walks at most LoadOlderPages pages below oldest",
			saved: Cursor{HasNewest: true, NewestMs: 520_000, HasOldest: true, OldestMs: 520_000}, intent: Older,
			relays: []*Relay{{Events: append(wraps("o", 400, 1_000, 1_000), wraps("h", 120, 401_000, 1_000)...)}},
			// 300 wraps below 520,000: 119 of the later history, 181 older ones.
			want: Cursor{HasNewest: true, NewestMs: 520_000, HasOldest: true, OldestMs: 220_000}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, p := run(t, Spec(), tc.saved, tc.intent, NewMemoryStore(), tc.relays...)
			if c.String() != tc.want.String() {
				t.Errorf("cursor %s, want %s", c, tc.want)
			}
			if p.Failed != tc.failed || len(p.Errors) != tc.errors {
				t.Errorf("failed %v errors %v, want %v and %d", p.Failed, p.Errors, tc.failed, tc.errors)
			}
			if tc.intent == CatchUp && len(p.Pages) > 0 && p.Pages[0].Window != tc.firstPage && tc.firstPage != (Window{}) {
				t.Errorf("first page %s, want %s", p.Pages[0].Window, tc.firstPage)
			}
			for i := 1; i < len(p.Pages); i++ {
				if a, b := p.Pages[i-1], p.Pages[i]; a.Pass == b.Pass && b.Window.HasUntil && a.Window.HasUntil && b.Window.UntilMs >= a.Window.UntilMs {
					t.Errorf("page %d does not move below page %d: %s then %s", i, i-1, a.Window, b.Window)
				}
			}
		})
	}
}

// TestBurstBeyondTheBridge is the documented limitation at production
// sizes: 1,100 wraps published while offline exceed CATCH_UP_PAGES x
// PAGE_WRAPS, the document's rules leave the hole for every later round,
// and the healing rules repair it within two more rounds.
func TestBurstBeyondTheBridge(t *testing.T) {
	old := wraps("a", 10, 1_000, 1_000)
	burst := wraps("b", 1_100, 1_000_000, 1_000)
	for _, tc := range []struct {
		rules  *Rules
		healed bool
	}{{Spec(), false}, {Healing(), true}} {
		t.Run(tc.rules.Name, func(t *testing.T) {
			store := NewMemoryStore()
			relay := &Relay{Events: old}
			c, _ := run(t, tc.rules, Cursor{}, CatchUp, store, relay)
			relay.Events = append(append([]Event(nil), old...), burst...)
			for range 3 {
				c, _ = run(t, tc.rules, c, CatchUp, store, relay)
			}
			missing := 0
			for _, e := range relay.Events {
				if !store.Has(e) {
					missing++
				}
			}
			if healed := missing == 0; healed != tc.healed {
				t.Errorf("%d wraps missing after three rounds (cursor %s)", missing, c)
			}
			if !tc.healed && missing != len(burst)-(CatchUpPages+1)*PageWraps {
				t.Errorf("hole of %d wraps, want the burst minus what the newest page and the bridge reached", missing)
			}
		})
	}
}

func TestBadInputChangesNothing(t *testing.T) {
	store := NewMemoryStore()
	for _, cfg := range []Config{{}, {PageWraps: 1}, {PageWraps: 1, CatchUpPages: 1, LoadOlderPages: 1, OverlapMs: -1}} {
		if _, err := NewRound(cfg, Spec(), Cursor{}, CatchUp, 1, store); !errors.Is(err, ErrConfig) {
			t.Errorf("config %+v: err %v, want ErrConfig", cfg, err)
		}
	}
	if _, err := NewRound(Defaults(), Spec(), Cursor{}, CatchUp, 0, store); !errors.Is(err, ErrConfig) {
		t.Errorf("no relays: err %v", err)
	}
	if _, err := NewRound(Defaults(), Spec(), Cursor{}, Intent(7), 1, store); !errors.Is(err, ErrConfig) {
		t.Errorf("unknown intent: err %v", err)
	}
	if _, err := NewRound(Defaults(), nil, Cursor{}, CatchUp, 1, store); !errors.Is(err, ErrConfig) {
		t.Errorf("no rules: err %v", err)
	}
	r, err := NewRound(Defaults(), Spec(), Cursor{}, CatchUp, 1, store)
	if err != nil {
		t.Fatal(err)
	}
	// Reports for relays never asked, or before any page, are ignored.
	r.Deliver(0, wraps("x", 3, 1, 1))
	r.EOSE(5)
	r.Closed(-1, "blocked")
	if store.Len() != 0 {
		t.Errorf("a delivery before any page stored %d wraps", store.Len())
	}
	p, _ := r.Next()
	r.Deliver(7, wraps("x", 3, 1, 1))
	if store.Len() != 0 {
		t.Errorf("a delivery from a relay not asked stored %d wraps", store.Len())
	}
	if c, _ := r.Result(); c != (Cursor{}) || r.Done() || len(p.Relays) != 1 {
		t.Errorf("an unfinished round's result %s", c)
	}
}

func TestMergeIsMonotone(t *testing.T) {
	saved := Cursor{HasNewest: true, NewestMs: 10, HasOldest: true, OldestMs: 5, Exhausted: true}
	for _, p := range []Cursor{{}, {HasNewest: true, NewestMs: 3}, {HasOldest: true, OldestMs: 9}, {HasNewest: true, NewestMs: 12, HasOldest: true, OldestMs: 2}} {
		m := Merge(saved, p)
		if m.NewestMs < saved.NewestMs || m.OldestMs > saved.OldestMs || !m.Exhausted {
			t.Errorf("merge %s into %s regressed: %s", p, saved, m)
		}
	}
	if c := Spec().Rekey(saved); c.Exhausted || c.NewestMs != 10 {
		t.Errorf("a rekey leaves %s", c)
	}
}
