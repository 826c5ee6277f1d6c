package exhaustive

import (
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/model"
)

// Two test-only rule changes that converge, every device agreeing, to the
// wrong verdict (the formal note's M1 and M2). No check that compares
// devices or delivery orders can see them; the intent oracle must.
func liveNoBaseline() *model.Rules {
	r := model.Proposed().Clone()
	r.Live = func(g model.Reg, _ uint32, tie model.TiePolicy) bool {
		if g.S == 0 {
			return false
		}
		if tie == model.SetWins {
			return g.S >= g.C
		}
		return g.S > g.C
	}
	return r
}

func counterPlusOne() *model.Rules {
	r := model.Proposed().Clone()
	r.MarkUnread = func(g model.Reg, f uint32, _ bool) (model.Reg, error) {
		return model.Reg{S: g.S + 1, C: g.C, B: f}, nil
	}
	r.MarkRead = func(g model.Reg, _ uint32, _ bool) (model.Reg, error) {
		return model.Reg{S: g.S, C: g.C + 1, B: g.B}, nil
	}
	return r
}

func init() {
	testCatalog.AddRules("test-live-no-baseline", liveNoBaseline)
	testCatalog.AddRules("test-counter-plus-one", counterPlusOne)
}

// The two converging rule changes are caught by the intent oracle, and by
// nothing else, in the network universe, while the reference universe's
// checks pass them at its bound and one level deeper.
func TestOracleCatchesWhatTheReferenceCannot(t *testing.T) {
	for _, name := range []string{"test-live-no-baseline", "test-counter-plus-one"} {
		for _, tie := range ties {
			rules, err := testCatalog.Rules(name)
			if err != nil {
				t.Fatal(err)
			}
			r := exploreNet(t, "network", Config{Depth: 4, Rules: rules.WithTie(tie)})
			if r.Status != StatusViolation || r.Witness == nil || r.Witness.Invariant != InvNetOracle {
				t.Fatalf("%s %v: status %v witness %+v", name, tie, r.Status, r.Witness)
			}
			for _, c := range r.Invariants {
				if c.Violations > 0 && c.Name != InvNetOracle {
					t.Errorf("%s %v: %s also fails (%d): the change should converge", name, tie, c.Name, c.Violations)
				}
			}
			res, err := Replay(testCatalog, r.Witness)
			if err != nil || !res.Reproduced {
				t.Errorf("%s %v: replay %v %v", name, tie, err, res)
			}
			for _, depth := range []int{4, 5}[:shortrun.Size(t, 2, 1)] {
				ref, err := Explore(Config{Universe: Reference(), Depth: depth, Rules: rules.WithTie(tie)})
				if err != nil {
					t.Fatal(err)
				}
				if ref.Status != StatusOK {
					t.Errorf("%s %v: the reference universe catches it at depth %d: %+v", name, tie, depth, ref.Witness)
				}
			}
		}
	}
}

func ev(dev, seq uint8, kind intentKind, b uint32, past ...uint64) intentEvent {
	p := make([]uint64, 3)
	copy(p, past)
	return intentEvent{dev: dev, seq: seq, kind: kind, b: b, past: p}
}

func TestJudgeIntent(t *testing.T) {
	set0 := ev(0, 1, intentSet, 10)         // d0's first event, nothing before it
	set1 := ev(1, 1, intentSet, 20)         // d1's first event, concurrent with set0
	clr1 := ev(1, 1, intentClear, 0)        // a concurrent clear
	nat1 := ev(1, 1, intentNaturalClear, 0) // a concurrent natural clear
	after := ev(1, 1, intentSet, 20, 1)     // d1's set, after d0's first event
	afterClr := ev(1, 1, intentClear, 0, 1) // d1's clear, after d0's first event
	tests := []struct {
		name string
		m    antichain
		f    uint32
		tie  model.TiePolicy
		want expectation
	}{
		{"nothing happened", nil, 20, model.ClearWins, expectDead},
		{"one set, frontier at its baseline", antichain{set0}, 10, model.ClearWins, expectLive},
		{"one set, frontier past its baseline", antichain{set0}, 20, model.ClearWins, expectDead},
		{"one clear", antichain{afterClr}, 0, model.ClearWins, expectDead},
		{"one natural clear", antichain{nat1}, 20, model.SetWins, expectDead},
		{"sibling sets, frontier within both", antichain{set0, set1}, 10, model.ClearWins, expectLive},
		{"sibling sets, frontier past both", antichain{set0, ev(1, 1, intentSet, 10)}, 20, model.ClearWins, expectDead},
		{"sibling sets, frontier overtook one", antichain{set0, set1}, 20, model.ClearWins, unjudged},
		{"sibling sets, set-wins takes the largest baseline", antichain{set0, set1}, 20, model.SetWins, expectLive},
		{"sibling set and clear, clear-wins", antichain{set0, clr1}, 0, model.ClearWins, expectDead},
		{"sibling set and clear, set-wins", antichain{set0, clr1}, 10, model.SetWins, expectLive},
		{"sibling set and natural clear", antichain{set0, nat1}, 10, model.ClearWins, expectLive},
		{"sibling natural clears", antichain{ev(0, 1, intentNaturalClear, 0), nat1}, 20, model.ClearWins, expectDead},
		{"different pasts", antichain{ev(0, 2, intentSet, 10, 1), set1}, 10, model.ClearWins, unjudged},
		{"siblings after a shared event", antichain{ev(0, 2, intentSet, 10, 1), after}, 10, model.ClearWins, expectLive},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, why := judgeIntent(tc.m, tc.f, tc.tie); got != tc.want {
				t.Errorf("got %v (%s), want %v", got, why, tc.want)
			}
		})
	}
}

func TestAntichainMerge(t *testing.T) {
	a := ev(0, 1, intentSet, 10)
	b := ev(1, 1, intentClear, 0, 1) // knows a
	c := ev(1, 2, intentSet, 20)     // a reinstalled d1: knows neither
	got := antichain{a}.merge(antichain{b})
	if len(got) != 1 || !got[0].same(b) {
		t.Errorf("a then b: %v", got)
	}
	got = antichain{b}.merge(antichain{c}).merge(antichain{a})
	if len(got) != 2 || !got[0].same(b) || !got[1].same(c) {
		t.Errorf("b, c, a: %v", got)
	}
	// c's sequence number is higher than b's, yet it does not know b: a
	// reinstall forgets, so the past is a set, not a counter.
	if b.before(c) || c.before(b) {
		t.Error("b and c are concurrent")
	}
	if clk := got.clock(3); clk[0] != 1 || clk[1] != 3 {
		t.Errorf("clock %v", clk)
	}
}
