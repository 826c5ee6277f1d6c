package exhaustive

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nip-rs/harness/internal/num"
)

// The network universes' figures are computed by the tests and pinned in
// testdata/figures/<test>.txt (figfile): a test fails when a figure moves.

func networkNoteRow(r *Result, universe string) string {
	sym := "off"
	if r.Symmetry {
		sym = "on"
	}
	return fmt.Sprintf("| %s | %d | %s | %s | %s | %s |", universe, r.Depth, r.Tie, sym, PerDepthString(r.PerDepth), num.Commas(r.Distinct))
}

func coverageText(cs []CoverageCount) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s %s", c.Name, num.Commas(int(c.Count))))
	}
	return strings.Join(parts, ", ")
}

func invariantChecked(r *Result, name string) string {
	for _, c := range r.Invariants {
		if c.Name == name {
			return num.Commas(int(c.Checked))
		}
	}
	return "?"
}

// checkCoverageFigures: the make-test run's coverage lines, in the network
// figures and in the comparison table's.
func checkCoverageFigures(t *testing.T, r *Result) {
	t.Helper()
	net, cmp := figfile.For(t, *update), figfile.For(t, *update)
	net.Line("- actions: " + coverageText(r.Actions))
	net.Line("- sometimes: " + coverageText(r.Sometimes))
	net.Line("- deliveries: " + coverageText(r.Deliveries))
	net.Line("- oracle: " + coverageText(r.Oracle))
	checked := fmt.Sprintf("checked: %s of %s states", num.Commas(r.Checked), num.Commas(r.Distinct))
	net.Line(fmt.Sprintf("- %s; N3 on %s contexts; N5 on %s publications; N6 on %s rotations", checked,
		invariantChecked(r, InvNetOracle), invariantChecked(r, InvNetPublish), invariantChecked(r, InvNetRotation)))
	net.Line(fmt.Sprintf("`make test` runs `network` at depth %d", r.Depth))
	net.Line(fmt.Sprintf("Depth %d is the shallowest at which `network` reaches all four", r.Depth))
	u := NetworkUniverse()
	net.Line(fmt.Sprintf("a %d-byte plaintext budget", u.Network.Budget.PlaintextBytes))
	net.Line(fmt.Sprintf("(`spill-` and %d `x`", len(u.Network.FrontierOnly[0])-len("spill-")))
	count := func(cs []CoverageCount, name string) string {
		for _, c := range cs {
			if c.Name == name {
				return name + " " + num.Commas(int(c.Count))
			}
		}
		return name + " ?"
	}
	for _, phrase := range []string{
		checked,
		fmt.Sprintf("N1 and N2 on %s states", invariantChecked(r, InvNetConvergence)),
		count(r.Deliveries, deliveryStale), count(r.Deliveries, deliveryReordered), count(r.Deliveries, deliveryPart),
		count(r.Actions, "duplicate"), count(r.Actions, "drop"), count(r.Actions, "reinstall"), count(r.Actions, "rotate"),
		count(r.Sometimes, SometimesStaleAfterCompaction), count(r.Sometimes, SometimesTombstoneMeetsLive),
		count(r.Sometimes, SometimesSplitHalfWay), count(r.Sometimes, SometimesLegacyRewritesLive),
		fmt.Sprintf("N5 on %s publications", invariantChecked(r, InvNetPublish)),
		fmt.Sprintf("N6 on %s rotations", invariantChecked(r, InvNetRotation)),
		"oracle: " + coverageText(r.Oracle),
		fmt.Sprintf("%s orbits for %s states", num.Commas(r.Distinct), num.Commas(concreteStates(r.Universe, r.Depth))),
		fmt.Sprintf("a %d-byte budget", u.Network.Budget.PlaintextBytes),
	} {
		cmp.Line(phrase)
	}
}

// concreteStates is the pinned state count of a universe with symmetry off.
func concreteStates(universe string, depth int) int {
	for _, tc := range networkCounts {
		if tc.universe == universe && tc.depth == depth && !tc.symmetry {
			return tc.distinct
		}
	}
	return -1
}
