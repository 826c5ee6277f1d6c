package directed

import (
	"errors"
	"fmt"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// directedFigures pins every directed check: points over both tie policies
// (tie-independent checks run once) and tallies.
var directedFigures = map[string]struct {
	total   int
	tallies map[string]int
}{
	"join-idempotent":          {64, nil},
	"join-commutative":         {4096, nil},
	"join-associative":         {262144, nil},
	"compaction-exhaustive":    {288, nil},
	"deep-history":             {672, map[string]int{TallyCompactDeleted: 42, TallyCompactUnchanged: 84, TallyCompactTombstone: 546}},
	"tombstone-stale-ancestor": {90, nil},
	"tombstone-monotonic":      {1728, nil},
	"cross-device-suppression": {312, map[string]int{TallySuppression: 156}},
	"concurrent-stability":     {48, nil},
	"merge-closure":            {45074, nil},
	"replay-harmless":          {4, nil},
	"bounded-growth":           {4, nil},
	"exact-wire-shapes":        {8, nil},
	"identity-free-reinstall":  {4, nil},
	"multi-slot-union":         {4, nil},
	"interleaved-grouping":     {12, nil},
	"escaped-slot-grouping":    {4, nil},
	"reserved-namespace":       {2, nil},
	"legacy-rewrite":           {24, nil},
	"legacy-prune":             {4, map[string]int{TallyChildPruned: 2, TallyNestedPruned: 2}},
	"legacy-trim":              {4, map[string]int{TallyCannotFit: 2, TallyChildEvicted: 2}},
}

func suiteSummary(t *testing.T, rules *model.Rules) []*CheckSummary {
	t.Helper()
	return Summarize(RunSuite(rules, ties, 0, nil))
}

func TestDirectedFiguresUnderProductionRules(t *testing.T) {
	sums := suiteSummary(t, model.Proposed())
	note := figfile.For(t, *update)
	if len(sums) != len(directedFigures)+len(conformanceFigures) {
		t.Errorf("%d checks ran, %d pinned", len(sums), len(directedFigures)+len(conformanceFigures))
	}
	for _, s := range sums {
		if _, ok := conformanceFigures[s.Key]; ok {
			continue // pinned by TestConformanceFigures
		}
		want, ok := directedFigures[s.Key]
		if !ok {
			t.Errorf("check %s has no pinned figure", s.Key)
			continue
		}
		note.Line(s.TableRow())
		if s.Total != want.total {
			t.Errorf("%s: %d points, want %d", s.Key, s.Total, want.total)
		}
		for tie, v := range s.Violations {
			if v != 0 {
				t.Errorf("%s under %v: %d violations, first %s", s.Key, tie, v, s.Witnesses[0].DirectedText())
			}
		}
		if len(s.Tallies) != len(want.tallies) {
			t.Errorf("%s: tallies %v, want %v", s.Key, s.Tallies, want.tallies)
		}
		for k, v := range want.tallies {
			if s.Tallies[k] != v {
				t.Errorf("%s: tally %q = %d, want %d", s.Key, k, s.Tallies[k], v)
			}
		}
	}
}

// TestDirectedChecksCatchBrokenRules shows the checks have teeth: each
// broken rule set below makes the named check fail with the named
// invariant.
func TestDirectedChecksCatchBrokenRules(t *testing.T) {
	spec := model.Proposed()
	tests := []struct {
		name      string
		mutate    func(r *model.Rules)
		check     string
		invariant string
	}{
		{"last-writer-wins join", func(r *model.Rules) { r.Join = lwwJoin().Join }, "join-commutative", "I1-join-not-commutative"},
		{"no baseline dominance", func(r *model.Rules) {
			r.Live = func(g model.Reg, _ uint32, t model.TiePolicy) bool { return spec.Live(g, 0, t) }
		}, "bounded-growth", "I8-floor-shape"},
		{"mark-unread bumping by two", func(r *model.Rules) {
			r.MarkUnread = func(g model.Reg, f uint32, _ bool) (model.Reg, error) {
				return model.Reg{S: g.Ceiling() + 2, C: g.C, B: f}, nil
			}
		}, "bounded-growth", "I8-counter-growth"},
		{"mark-unread refused on a context never read", func(r *model.Rules) {
			r.MarkUnread = func(g model.Reg, f uint32, read bool) (model.Reg, error) {
				if !read {
					return g, errors.New("never read")
				}
				return spec.MarkUnread(g, f, read)
			}
		}, "action-conformance", "C6-action"},
		{"raw publication", func(r *model.Rules) {
			r.Canonical = func(g model.Reg, f uint32, l bool) (model.Reg, model.Shape) {
				if g.Virgin() {
					return g, model.ShapeOmit
				}
				return g, model.ShapeLive
			}
		}, "merge-closure", "I5e-dead-join-live"},
		{"delete on dominance", func(r *model.Rules) {
			r.Canonical = func(g model.Reg, f uint32, l bool) (model.Reg, model.Shape) {
				if !l && f > g.B {
					return model.Reg{}, model.ShapeOmit
				}
				return spec.Canonical(g, f, l)
			}
		}, "deep-history", "I5c-deep-history-loss"},
		{"no escaping", func(r *model.Rules) { r.Escape = func(k string) string { return k } }, "reserved-namespace", "reserved-namespace-collision"},
		{"tombstone keeps baseline", func(r *model.Rules) {
			r.Canonical = func(g model.Reg, f uint32, l bool) (model.Reg, model.Shape) {
				c, s := spec.Canonical(g, f, l)
				if s == model.ShapeFloor {
					return model.Reg{C: c.C, B: g.B}, model.ShapeLive
				}
				return c, s
			}
		}, "exact-wire-shapes", "I8-wire-shape"},
		{"grouping by escaped wire key", func(r *model.Rules) {
			r.Slots.GroupOf = func(wire string, kind model.KeyKind, raw string) string {
				if kind == model.KeyFrontier {
					return wire
				}
				return raw
			}
		}, "escaped-slot-grouping", "escaped-slot-mixture-false-clear"},
		{"per-entry grouping", func(r *model.Rules) {
			r.Slots.GroupOf = func(_ string, kind model.KeyKind, raw string) string {
				if kind == model.KeyB || kind == model.KeyC {
					return raw + "\x00bc"
				}
				return raw
			}
		}, "interleaved-grouping", "interleaved-delivery-wrong-verdict"},
	}
	for _, tc := range tests {
		t.Run(tc.name+"/"+tc.check, func(t *testing.T) {
			rules := spec.Clone()
			tc.mutate(rules)
			rules.Name = "broken"
			d, err := Lookup(tc.check)
			if err != nil {
				t.Fatal(err)
			}
			r := Run(d, rules.WithTie(model.ClearWins), 2)
			if r.Witness == nil {
				t.Fatalf("not caught (%d points)", r.Points)
			}
			if r.Witness.Invariant != tc.invariant {
				t.Errorf("caught as %s (%s), want %s", r.Witness.Invariant, r.Witness.Detail, tc.invariant)
			}
		})
	}
}

// Deleting a dead register instead of keeping its tombstone floor (the
// formal note's M4) fails the deep-history cube at exactly the points the
// reference model measured: 132, the first an ancestor (0,1,0) whose floor
// is lost before a new mark-unread.
func TestDeleteOnDominanceFailsDeepHistoryAsInTheReference(t *testing.T) {
	spec := model.Proposed()
	rules := spec.Clone()
	rules.Canonical = func(g model.Reg, f uint32, l bool) (model.Reg, model.Shape) {
		if !l && f > g.B {
			return model.Reg{}, model.ShapeOmit
		}
		return spec.Canonical(g, f, l)
	}
	d, _ := Lookup("deep-history")
	c := Run(d, rules.WithTie(model.ClearWins), 2)
	s := Run(d, rules.WithTie(model.SetWins), 2)
	if c.Violations != 78 || s.Violations != 54 {
		t.Errorf("violations clear %d set %d, want 78 and 54", c.Violations, s.Violations)
	}
	figfile.For(t, *update).Line(fmt.Sprintf("%d points (%d clear-wins, %d set-wins)", c.Violations+s.Violations, c.Violations, s.Violations))
	if p := c.Witness.Point.String(); p != `s0=0 c0=1 stale="b=0,f=10" seq="set"` {
		t.Errorf("first failing point %s", p)
	}
}

func TestDirectedWitnessReplays(t *testing.T) {
	rules := lwwJoin()
	d, _ := Lookup("join-commutative")
	one := Run(d, rules.WithTie(model.ClearWins), 1)
	two := Run(d, rules.WithTie(model.ClearWins), 2)
	if one.Witness == nil || string(one.Witness.JSON()) != string(two.Witness.JSON()) || one.Violations != two.Violations {
		t.Fatalf("witness differs between 1 and 2 workers or missing: %+v / %+v", one.Witness, two.Witness)
	}
	golden(t, "lww-join.join-commutative.witness.json", one.Witness.JSON())
	replayRoundTrip(t, one.Witness)

	bad := []string{
		`{"kind":"directed","check":"nope","tie":"clear","rules":"spec","invariant":"x","point":{}}`,
		`{"kind":"directed","check":"concurrent-stability","tie":"clear","rules":"spec","invariant":"x","point":{"ancestor":"(9,9)","f":0,"ctx":"c0"}}`,
		`{"kind":"directed","check":"concurrent-stability","tie":"clear","rules":"spec","invariant":"x","point":{"ancestor":"(1,0)","f":5,"ctx":"c0"}}`,
		`{"kind":"directed","check":"concurrent-stability","tie":"clear","rules":"spec","invariant":"x","point":{"f":0,"ancestor":"(1,0)","ctx":"c0"}}`,
		`{"kind":"directed","check":"concurrent-stability","tie":"clear","rules":"spec","invariant":"x","point":{"ancestor":"(1,0)","f":"0","ctx":"c0"}}`,
		`{"kind":"directed","check":"concurrent-stability","tie":"clear","rules":"spec","invariant":"x","point":[1,2]}`,
		`{"kind":"directed","check":"concurrent-stability","tie":"clear","rules":"spec","invariant":"x","point":{"ancestor":"(1,0)","f":1e99,"ctx":"c0"}}`,
		`{"kind":"directed","check":"join-commutative","tie":"clear","rules":"spec","invariant":"x","point":{"a.s":4,"a.c":0,"a.b":0,"b.s":0,"b.c":0,"b.b":0}}`,
		`{"kind":"directed","check":"join-commutative","tie":"clear","rules":"spec","invariant":"x","point":{"a.s":0,"a.c":0,"a.b":0}}`,
	}
	for _, b := range bad {
		w, err := witnessfile.Parse([]byte(b))
		if err == nil {
			_, err = Replay(w, testRules)
		}
		if !errors.Is(err, witnessfile.ErrBad) {
			t.Errorf("%s: got %v, want witnessfile.ErrBad", b, err)
		}
	}
}

func TestDirectedKeysAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range Checks() {
		if seen[d.Key] {
			t.Errorf("duplicate key %s", d.Key)
		}
		seen[d.Key] = true
		for _, p := range d.Cube(model.Proposed()) {
			if len(p) != len(d.Params) {
				t.Fatalf("%s: point %v has %d coordinates, %d params", d.Key, p, len(p), len(d.Params))
			}
		}
	}
}
