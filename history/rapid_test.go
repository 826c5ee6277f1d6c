package history

import (
	"testing"

	"pgregory.net/rapid"
)

// TestWalkStateMachine drives the universe's transitions from random
// choices over randomly sized rounds (pages of 1-3 wraps, budgets of 1-3
// pages, up to 20 wraps): every transition and state check the exhaustive
// universe runs must hold, except the document's known limitation. Under
// the proposed rules the variants' options are drawn too: wraps sharing
// seconds, a capped relay, a future-dated wrap, relays ignoring windows,
// an overlap, and a member dating wraps the overlap back.
func TestWalkStateMachine(t *testing.T) {
	for _, rules := range []*Rules{Spec(), Healing(), Proposed()} {
		t.Run(rules.Name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				u := UniverseConfig{Round: Config{
					PageWraps:      rapid.IntRange(1, 3).Draw(t, "page"),
					CatchUpPages:   rapid.IntRange(1, 3).Draw(t, "catch-up"),
					LoadOlderPages: rapid.IntRange(1, 3).Draw(t, "load-older"),
				}, MaxT: rapid.IntRange(2, 20).Draw(t, "max-t"), Depth: 0}
				if rules.Name == "proposed" {
					u.Tick = rapid.IntRange(1, 3).Draw(t, "tick")
					u.Future = rapid.Bool().Draw(t, "future")
					u.Strays = rapid.Bool().Draw(t, "strays")
					u.Round.OverlapMs = int64(rapid.IntRange(0, 2).Draw(t, "overlap"))
					u.Backdate = u.Round.OverlapMs > 0 && rapid.Bool().Draw(t, "backdate")
					if u.Round.PageWraps == 3 {
						u.Cap = rapid.IntRange(0, 2).Draw(t, "cap") // a cap of 1 can prove no second complete
						if u.Cap == 1 {
							u.Cap = 0
						}
					}
				}
				w, err := NewWorld(u, rules, ReportGate)
				if err != nil {
					t.Fatal(err)
				}
				s := initial()
				steps := rapid.IntRange(1, 40).Draw(t, "steps")
				for i := range steps {
					tr := rapid.IntRange(0, w.Transitions()-1).Draw(t, "transition")
					n, fs, ok := w.step(s, tr)
					if !ok {
						continue
					}
					fs = w.filter(append(fs, w.checkState(n)...))
					for _, f := range fs {
						t.Fatalf("step %d (%s): %s: %s\nfrom\n%s\nto\n%s", i, describe(actionOf(tr)), Invariants[f.Inv].ID, f.Detail, s, n)
					}
					s = n
				}
			})
		})
	}
}
