package exhaustive

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/notefig"
)

// NOTE.md's network sections hold figures the code computes; these tests
// fail when the note and the code disagree.

// noteSectionNamed, noteRow and noteText read NOTE.md through notefig and
// fail the test with what the code computed when the note lacks it.
func noteSectionNamed(t *testing.T, heading string) string { return notefig.Section(t, heading) }

func noteRow(t *testing.T, sec, row string) { t.Helper(); notefig.RequireLine(t, sec, row) }

func noteText(t *testing.T, sec, phrase string) { t.Helper(); notefig.RequireMention(t, sec, phrase) }

const (
	networkNoteHeading    = "## Network universes"
	comparisonNoteHeading = "## Reference model vs this harness"
)

func networkNoteRow(r *Result, universe string) string {
	sym := "off"
	if r.Symmetry {
		sym = "on"
	}
	return fmt.Sprintf("| %s | %d | %s | %s | %s | %s |", universe, r.Depth, r.Tie, sym, PerDepthString(r.PerDepth), notefig.Commas(r.Distinct))
}

func coverageText(cs []CoverageCount) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s %s", c.Name, notefig.Commas(int(c.Count))))
	}
	return strings.Join(parts, ", ")
}

func invariantChecked(r *Result, name string) string {
	for _, c := range r.Invariants {
		if c.Name == name {
			return notefig.Commas(int(c.Checked))
		}
	}
	return "?"
}

// checkCoverageInNote: the make-test run's coverage lines, in the network
// section and in the comparison table.
func checkCoverageInNote(t *testing.T, r *Result) {
	t.Helper()
	net, cmp := noteSectionNamed(t, networkNoteHeading), noteSectionNamed(t, comparisonNoteHeading)
	noteRow(t, net, "- actions: "+coverageText(r.Actions))
	noteRow(t, net, "- sometimes: "+coverageText(r.Sometimes))
	noteRow(t, net, "- deliveries: "+coverageText(r.Deliveries))
	noteRow(t, net, "- oracle: "+coverageText(r.Oracle))
	checked := fmt.Sprintf("checked: %s of %s states", notefig.Commas(r.Checked), notefig.Commas(r.Distinct))
	noteRow(t, net, fmt.Sprintf("- %s; N3 on %s contexts; N5 on %s publications; N6 on %s rotations", checked,
		invariantChecked(r, InvNetOracle), invariantChecked(r, InvNetPublish), invariantChecked(r, InvNetRotation)))
	noteText(t, net, fmt.Sprintf("`make test` runs `network` at depth %d", r.Depth))
	noteText(t, net, fmt.Sprintf("Depth %d is the shallowest at which `network` reaches all four", r.Depth))
	u := NetworkUniverse()
	noteText(t, net, fmt.Sprintf("a %d-byte plaintext budget", u.Network.Budget.PlaintextBytes))
	noteText(t, net, fmt.Sprintf("(`spill-` and %d `x`", len(u.Network.FrontierOnly[0])-len("spill-")))
	count := func(cs []CoverageCount, name string) string {
		for _, c := range cs {
			if c.Name == name {
				return name + " " + notefig.Commas(int(c.Count))
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
		fmt.Sprintf("%s orbits for %s states", notefig.Commas(r.Distinct), notefig.Commas(concreteStates(r.Universe, r.Depth))),
		fmt.Sprintf("a %d-byte budget", u.Network.Budget.PlaintextBytes),
	} {
		noteText(t, cmp, phrase)
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
