package exhaustive

import (
	"fmt"
	"slices"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// The reduction stores and checks every state: the states per depth, every
// count of a state check and the oracle's coverage are those of the full
// search, while fewer transitions run and no transition check fails that
// did not fail before.
func TestPORKeepsEveryState(t *testing.T) {
	for _, tc := range []struct {
		universe string
		depth    int
		tie      model.TiePolicy
		symmetry bool
	}{
		{"network", 4, model.ClearWins, true},
		{"network", 3, model.SetWins, false},
		{"network-whole", 4, model.ClearWins, true},
	} {
		t.Run(fmt.Sprintf("%s/%d/%v/symmetry=%t", tc.universe, tc.depth, tc.tie, tc.symmetry), func(t *testing.T) {
			cfg := Config{Depth: tc.depth, Rules: model.Proposed().WithTie(tc.tie), NoSymmetry: !tc.symmetry}
			full := exploreNet(t, tc.universe, cfg)
			cfg.POR = true
			red := exploreNet(t, tc.universe, cfg)
			cfg.Workers = 3
			if other := exploreNet(t, tc.universe, cfg); other.Transitions != red.Transitions || !slices.Equal(other.Actions, red.Actions) {
				t.Fatalf("reduced with 3 workers: %d transitions %v, with the default: %d %v", other.Transitions, other.Actions, red.Transitions, red.Actions)
			}
			if !red.POR || full.POR {
				t.Fatalf("POR reported %t reduced, %t full", red.POR, full.POR)
			}
			if !slices.Equal(red.PerDepth, full.PerDepth) || red.Checked != full.Checked || red.Status != full.Status {
				t.Fatalf("reduced %v %d %v, full %v %d %v", red.PerDepth, red.Checked, red.Status, full.PerDepth, full.Checked, full.Status)
			}
			if red.Transitions >= full.Transitions {
				t.Fatalf("transitions: reduced %d, full %d", red.Transitions, full.Transitions)
			}
			for i, inv := range full.Invariants {
				r := red.Invariants[i]
				if (r.Violations > 0) != (inv.Violations > 0) {
					t.Errorf("%s: %d violations reduced, %d full", inv.Name, r.Violations, inv.Violations)
				}
				if inv.Unit == unitNames[unitStates] || inv.Unit == unitNames[unitRegisters] || inv.Unit == unitNames[unitContexts] {
					if r.Checked != inv.Checked {
						t.Errorf("%s checked %d %s reduced, %d full", inv.Name, r.Checked, inv.Unit, inv.Checked)
					}
				}
			}
			if !slices.Equal(red.Oracle, full.Oracle) {
				t.Errorf("oracle coverage %v reduced, %v full", red.Oracle, full.Oracle)
			}
			for i, s := range full.Sometimes {
				if (s.Count > 0) != (red.Sometimes[i].Count > 0) {
					t.Errorf("sometimes %s: %d reduced, %d full", s.Name, red.Sometimes[i].Count, s.Count)
				}
			}
			t.Logf("transitions %d reduced, %d full", red.Transitions, full.Transitions)
		})
	}
}

// BenchmarkNetworkPOR explores the network universe at its default depth
// with and without the reduction.
func BenchmarkNetworkPOR(b *testing.B) {
	for _, por := range []bool{false, true} {
		b.Run(fmt.Sprintf("por=%t", por), func(b *testing.B) {
			var r *Result
			for b.Loop() {
				r = exploreNet(b, "network", Config{Depth: networkDepth, Rules: model.Proposed(), POR: por})
			}
			b.ReportMetric(float64(r.Distinct), "states")
			b.ReportMetric(float64(r.Transitions), "transitions")
		})
	}
}

// Every pair of transitions the network world calls independent commutes
// in every state within depth 3 where both are enabled: each stays enabled
// after the other, both orders end in the same row, and each finds the
// same in either position. This is what the reduction relies on, checked
// on the transitions as they are (a new kind of transition that touches
// more than touches says fails here).
func TestIndependentTransitionsCommute(t *testing.T) {
	for _, name := range []string{"network", "network-whole"} {
		u, err := testCatalog.Universe(name)
		if err != nil {
			t.Fatal(err)
		}
		wd, _, err := newWorld(&u, model.Proposed(), 3, false)
		if err != nil {
			t.Fatal(err)
		}
		w := wd.(*netWorld)
		run, err := search.Explore[*cache](w, search.Config{Depth: 3, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		c := w.NewWorker()
		tl := w.scratch()
		nt := w.Transitions()
		ab, ba, tmp := make([]int32, w.Width()), make([]int32, w.Width()), make([]int32, w.Width())
		pairs := 0
		for i := range run.Store.Len() {
			cur := run.Store.Row(i)
			var enabled []int
			for x := range nt {
				if ok, _ := w.apply(c, cur, x, tmp, tl); ok {
					enabled = append(enabled, x)
				}
			}
			for ia, a := range enabled {
				for _, b := range enabled[ia+1:] {
					if !w.Independent(a, b) {
						continue
					}
					pairs++
					okA, fa := w.apply(c, cur, a, tmp, tl)
					okAB, fab := w.apply(c, slices.Clone(tmp), b, ab, tl)
					okB, fb := w.apply(c, cur, b, tmp, tl)
					okBA, fba := w.apply(c, slices.Clone(tmp), a, ba, tl)
					if !okA || !okB || !okAB || !okBA || !slices.Equal(ab, ba) ||
						fmt.Sprint(fa) != fmt.Sprint(fba) || fmt.Sprint(fb) != fmt.Sprint(fab) {
						t.Fatalf("%s: state %d, %v and %v do not commute", name, i, w.decode(a), w.decode(b))
					}
				}
			}
		}
		if pairs < 1000 {
			t.Fatalf("%s: only %d independent pairs checked", name, pairs)
		}
	}
}
