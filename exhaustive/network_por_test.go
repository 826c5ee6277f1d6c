package exhaustive

import (
	"fmt"
	"slices"
	"testing"

	"github.com/nip-rs/harness/model"
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
			cfg := Config{Depth: tc.depth, Rules: model.Spec().WithTie(tc.tie), NoSymmetry: !tc.symmetry}
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
				r = exploreNet(b, "network", Config{Depth: networkDepth, Rules: model.Spec(), POR: por})
			}
			b.ReportMetric(float64(r.Distinct), "states")
			b.ReportMetric(float64(r.Transitions), "transitions")
		})
	}
}
