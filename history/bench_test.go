package history

import (
	"slices"
	"testing"
)

// BenchmarkColdRound: a cold catch-up at the production sizes over two
// relays holding 1,000 wraps each (the older pass walks its whole budget).
func BenchmarkColdRound(b *testing.B) {
	relays := []*Relay{{Events: wraps("a", 1_000, 1_000, 1_000)}, {Events: wraps("b", 1_000, 1_500, 1_000)}}
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewRound(Defaults(), Spec(), Cursor{}, CatchUp, len(relays), NewMemoryStore())
		if err != nil {
			b.Fatal(err)
		}
		Drive(r, relays, nil)
	}
}

// BenchmarkUniverseRound: one round transition of the default universe,
// from a state holding five wraps.
func BenchmarkUniverseRound(b *testing.B) {
	w, err := NewWorld(DefaultUniverse(), Spec(), ReportGate)
	if err != nil {
		b.Fatal(err)
	}
	s := initial()
	for _, t := range []int{tPublishBoth, tPublish1, tPublishBoth, tPublish1} {
		s, _, _ = w.step(s, t)
	}
	b.ReportAllocs()
	for b.Loop() {
		w.step(s, tRounds)
	}
}

// BenchmarkStoreOnePage: 100,000 wraps added in one page and the page read
// back, in the order a relay sends them (newest first) and in the reverse
// order, which made an insertion each quadratic.
func BenchmarkStoreOnePage(b *testing.B) {
	es := wraps("w", 100_000, 1_000, 1_000)
	SortNewestFirst(es)
	rev := slices.Clone(es)
	slices.Reverse(rev)
	for _, order := range []struct {
		name string
		es   []Event
	}{{"newest-first", es}, {"oldest-first", rev}} {
		b.Run(order.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := NewMemoryStore()
				for _, e := range order.es {
					s.Add(e)
				}
				s.Query(Window{}, PageWraps)
			}
		})
	}
}

// BenchmarkWalkLiveness times the walk's liveness check on the plateau
// variant at its gate depth under the proposal, on one worker.
func BenchmarkWalkLiveness(b *testing.B) {
	for _, v := range GateVariants() {
		if v.Name != "plateau" {
			continue
		}
		for range b.N {
			if _, err := Liveness(v.Name, v.U, Proposed(), 1); err != nil {
				b.Fatal(err)
			}
		}
	}
}
